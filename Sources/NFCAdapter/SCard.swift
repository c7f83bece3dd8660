import CPCSC
import Foundation

/// The funnel for libpcsclite (docs/design.md, habit 4): the only code that calls
/// `SCard…` functions. Converts return codes into `SCardCallError` once,
/// naming the call, and DWORD/LONG widths once.
struct SCard: SmartCardSystem {
    /// A connected card and the protocol pcscd chose for it.
    struct Card {
        let handle: SCARDHANDLE
        let activeProtocol: DWORD
    }

    private static func check(_ call: String, _ code: LONG) throws(SCardCallError) {
        guard code != SCARD_S_SUCCESS else { return }
        throw SCardCallError(call: call, code: PCSCError(rawValue: Int(code)))
    }

    func establishContext() throws(SCardCallError) -> SCARDCONTEXT {
        var context: SCARDCONTEXT = 0
        try Self.check("SCardEstablishContext", SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context))
        return context
    }

    func releaseContext(_ context: SCARDCONTEXT) {
        _ = SCardReleaseContext(context)
    }

    func cancel(_ context: SCARDCONTEXT) {
        _ = SCardCancel(context)
    }

    func listReaders(_ context: SCARDCONTEXT) throws(SCardCallError) -> [String] {
        var length: DWORD = 0
        var code = SCardListReaders(context, nil, nil, &length)
        if code == SCARD_E_NO_READERS_AVAILABLE { return [] }
        try Self.check("SCardListReaders", code)
        var buffer = [CChar](repeating: 0, count: Int(length))
        code = SCardListReaders(context, nil, &buffer, &length)
        if code == SCARD_E_NO_READERS_AVAILABLE { return [] }
        try Self.check("SCardListReaders", code)
        // A multi-string: names separated by NUL, ended by an empty name.
        return buffer.prefix(Int(length)).split(separator: 0).map {
            String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    func getStatusChange(_ context: SCARDCONTEXT, timeoutMilliseconds: UInt32,
                         states: inout [ReaderState]) throws(SCardCallError) {
        let names = states.map { strdup($0.reader) }
        defer { names.forEach { free($0) } }
        var native = states.indices.map { i in
            var entry = SCARD_READERSTATE()
            entry.szReader = UnsafePointer(names[i])
            entry.dwCurrentState = DWORD(states[i].current.rawValue)
            return entry
        }
        let code = SCardGetStatusChange(context, DWORD(timeoutMilliseconds), &native, DWORD(native.count))
        try Self.check("SCardGetStatusChange", code)
        for i in states.indices {
            states[i].event = ReaderStateFlags(rawValue: UInt(native[i].dwEventState))
        }
    }

    func connect(_ context: SCARDCONTEXT, reader: String) throws(SCardCallError) -> Card {
        var handle: SCARDHANDLE = 0
        var active: DWORD = 0
        try Self.check("SCardConnect", SCardConnect(context, reader, DWORD(SCARD_SHARE_SHARED),
                                                    DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1),
                                                    &handle, &active))
        return Card(handle: handle, activeProtocol: active)
    }

    func transmit(_ card: Card, _ apdu: [UInt8]) throws(SCardCallError) -> [UInt8] {
        let pci = card.activeProtocol == DWORD(SCARD_PROTOCOL_T0) ? CPCSC_PCI_T0() : CPCSC_PCI_T1()
        var response = [UInt8](repeating: 0, count: 258)
        var length = DWORD(response.count)
        try Self.check("SCardTransmit", SCardTransmit(card.handle, pci, apdu, DWORD(apdu.count), nil,
                                                      &response, &length))
        return Array(response.prefix(Int(length)))
    }

    func control(_ card: Card, code: UInt32, _ command: [UInt8]) throws(SCardCallError) -> [UInt8] {
        var response = [UInt8](repeating: 0, count: 258)
        var length: DWORD = 0
        try Self.check("SCardControl", SCardControl(card.handle, DWORD(code), command, DWORD(command.count),
                                                    &response, DWORD(response.count), &length))
        return Array(response.prefix(Int(length)))
    }

    func disconnect(_ card: Card) {
        _ = SCardDisconnect(card.handle, DWORD(SCARD_LEAVE_CARD))
    }
}
