/// The libnfc calls the adapter makes: `LibNFC` is the real implementation,
/// `ScriptedNFCChip` (Tests/NFCAdapterTests/ReaderLogicTests.swift) the fake that drives
/// `LibNFCTagReader`'s loop step by step (docs/design.md, habit 4).
protocol NFCChipSystem: Sendable {
    associatedtype Context: Sendable
    associatedtype Device: Sendable
    associatedtype Target

    func makeContext() throws(LibNFCCallError) -> Context
    /// Opens `connstring`, or libnfc's choice (`LIBNFC_DEVICE`, its config
    /// files) when nil, and puts it in initiator mode.
    func open(_ context: Context, connstring: String?) throws(LibNFCCallError) -> Device
    func close(_ device: Device)
    /// Interrupts the command `device` is blocked in, from any thread.
    func abort(_ device: Device)
    /// Polls for one ISO14443A 106 kbps target; nil when none came.
    func pollTypeA(_ device: Device) throws(LibNFCCallError) -> Target?
    func uid(of target: Target) -> [UInt8]
    func transceive(_ device: Device, _ bytes: [UInt8], receiveCapacity: Int) throws(LibNFCCallError) -> [UInt8]
    /// False once the target has left the field.
    func isPresent(_ device: Device, _ target: Target) throws(LibNFCCallError) -> Bool
}
