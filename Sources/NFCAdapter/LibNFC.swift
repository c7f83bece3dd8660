import CNFC
#if canImport(Glibc)
import Glibc
#endif

/// The funnel for libnfc (docs/design.md, habit 4): the only code that calls `nfc_…`
/// functions; return codes become `LibNFCCallError`, naming the call.
struct LibNFC: NFCChipSystem {
    /// Owns one `nfc_context`.
    // @unchecked: a C pointer, created and freed once and used on the adapter's thread.
    final class Context: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    /// The process's one context, never exited: libnfc 1.8 keeps its driver
    /// list in a global that `nfc_exit` frees, so exiting one context leaves
    /// every other context with "No driver available" (seen when an enroll
    /// and the adapter, or two test runs, overlap).
    private static let shared: Result<Context, LibNFCCallError> = {
        // libnfc writes its own error lines to stderr ("error\tlibnfc.buses.usbbus\t
        // Unable to find USB busses …" on every machine without USB access),
        // which would land among our one-sentence messages and in the
        // agent's journal. Its level is read from the environment by
        // nfc_init; a level the user set (to debug a reader) is kept.
        setenv("LIBNFC_LOG_LEVEL", "0", 0)
        var context: OpaquePointer?
        nfc_init(&context)
        guard let context else { return .failure(LibNFCCallError(call: "nfc_init", code: .software)) }
        return .success(Context(context))
    }()

    /// An open `nfc_device *`, confined to the adapter's thread except for
    /// `nfc_abort_command`, which libnfc allows from another thread.
    // @unchecked: a C pointer; libnfc allows nfc_abort_command from another thread.
    struct Device: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// How long one poll waits: 2 rounds × 2 periods × 150 ms on a real PN53x.
    static let pollRounds: UInt8 = 2
    static let pollPeriod: UInt8 = 2
    /// Timeout of one Type 2 READ, in milliseconds.
    static let exchangeTimeout: Int32 = 200

    private static func check(_ call: String, _ code: Int32) throws(LibNFCCallError) -> Int32 {
        guard code >= 0 else { throw LibNFCCallError(call: call, code: LibNFCError(rawValue: code)) }
        return code
    }

    func makeContext() throws(LibNFCCallError) -> Context {
        try Self.shared.get()
    }

    func open(_ context: Context, connstring: String?) throws(LibNFCCallError) -> Device {
        let device: OpaquePointer? = if let connstring { nfc_open(context.pointer, connstring) }
                                     else { nfc_open(context.pointer, nil) }
        guard let device else { throw LibNFCCallError(call: "nfc_open", code: .noSuchDevice) }
        do throws(LibNFCCallError) {
            _ = try Self.check("nfc_initiator_init", nfc_initiator_init(device))
        } catch {
            nfc_close(device)
            throw error
        }
        return Device(pointer: device)
    }

    func close(_ device: Device) {
        nfc_close(device.pointer)
    }

    func abort(_ device: Device) {
        _ = nfc_abort_command(device.pointer)
    }

    func pollTypeA(_ device: Device) throws(LibNFCCallError) -> nfc_target? {
        var modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        var target = nfc_target()
        let found = try Self.check("nfc_initiator_poll_target",
                                   nfc_initiator_poll_target(device.pointer, &modulation, 1,
                                                             Self.pollRounds, Self.pollPeriod, &target))
        return found > 0 ? target : nil
    }

    func uid(of target: nfc_target) -> [UInt8] {
        var info = target.nti.nai
        let length = min(Int(info.szUidLen), MemoryLayout.size(ofValue: info.abtUid))
        return withUnsafeBytes(of: &info.abtUid) { Array($0.prefix(length)) }
    }

    func transceive(_ device: Device, _ bytes: [UInt8], receiveCapacity: Int) throws(LibNFCCallError) -> [UInt8] {
        var received = [UInt8](repeating: 0, count: receiveCapacity)
        let count = try Self.check("nfc_initiator_transceive_bytes",
                                   nfc_initiator_transceive_bytes(device.pointer, bytes, bytes.count, &received,
                                                                  receiveCapacity, Self.exchangeTimeout))
        return Array(received.prefix(Int(count)))
    }

    func isPresent(_ device: Device, _ target: nfc_target) throws(LibNFCCallError) -> Bool {
        var target = target
        let code = nfc_initiator_target_is_present(device.pointer, &target)
        if code == NFC_SUCCESS { return true }
        let error = LibNFCError(rawValue: code)
        if error.isTagGone { return false }
        throw LibNFCCallError(call: "nfc_initiator_target_is_present", code: error)
    }
}
