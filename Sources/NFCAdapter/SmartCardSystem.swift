/// The PC/SC calls the adapter makes: `SCard` is the real implementation,
/// `ScriptedSmartCards` (Tests/NFCAdapterTests/ReaderLogicTests.swift) the fake that drives
/// `PCSCTagReader`'s loop step by step (docs/design.md, habit 4).
protocol SmartCardSystem: Sendable {
    associatedtype Context: Sendable
    associatedtype Card

    func establishContext() throws(SCardCallError) -> Context
    func releaseContext(_ context: Context)
    /// Interrupts a `getStatusChange` blocked on `context`, from any thread.
    func cancel(_ context: Context)
    /// The reader names; empty when there are none.
    func listReaders(_ context: Context) throws(SCardCallError) -> [String]
    /// Blocks until a reader's state differs from its `current`, the timeout
    /// passes (`.timeout`) or `cancel` is called (`.cancelled`).
    func getStatusChange(_ context: Context, timeoutMilliseconds: UInt32,
                         states: inout [ReaderState]) throws(SCardCallError)
    func connect(_ context: Context, reader: String) throws(SCardCallError) -> Card
    /// Sends one APDU; returns the response including SW1 SW2.
    func transmit(_ card: Card, _ apdu: [UInt8]) throws(SCardCallError) -> [UInt8]
    /// Sends a command to the reader itself (`SCardControl`); returns its answer.
    func control(_ card: Card, code: UInt32, _ command: [UInt8]) throws(SCardCallError) -> [UInt8]
    func disconnect(_ card: Card)
}

/// One entry of a `getStatusChange` call, in Swift types.
struct ReaderState: Sendable, Equatable {
    /// The pseudo-reader whose state changes when readers come and go.
    static let plugAndPlay = #"\\?PnP?\Notification"#

    var reader: String
    /// What the caller last saw; `[]` asks for the state at once.
    var current: ReaderStateFlags = []
    /// What the call found (valid after it returns).
    var event: ReaderStateFlags = []
}

/// `SCARD_STATE_…` bits. The upper 16 bits of an event state are
/// pcsc-lite's event counter; keeping them in `current` lets the daemon
/// report a remove-and-reinsert it saw between two calls.
struct ReaderStateFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt
    static let ignore = ReaderStateFlags(rawValue: 0x0001)
    static let changed = ReaderStateFlags(rawValue: 0x0002)
    static let unknown = ReaderStateFlags(rawValue: 0x0004)
    static let unavailable = ReaderStateFlags(rawValue: 0x0008)
    static let empty = ReaderStateFlags(rawValue: 0x0010)
    static let present = ReaderStateFlags(rawValue: 0x0020)
    static let mute = ReaderStateFlags(rawValue: 0x0200)
}
