import DeskDaysConfig
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// A source of taps from whichever backend the configuration picks
/// (`[nfc] backend`), for the adapter and for `deskdays enroll nfc`.
public struct NFCTagReader: Sendable {
    /// The backend in use after `auto` was resolved.
    public let backend: NFCSettings.Backend
    private let start: @Sendable (@escaping @Sendable (String) -> Bool) -> AsyncThrowingStream<TagReading, Error>

    /// A backend and how its taps start (tests give a reader over a fake seam).
    init(backend: NFCSettings.Backend, start: @escaping @Sendable (@escaping @Sendable (String) -> Bool) -> AsyncThrowingStream<TagReading, Error>) {
        self.backend = backend
        self.start = start
    }

    /// The PC/SC backend (pcscd; every reader it has, and ones added later).
    /// `judge`: whether a reading checks the user in, for the reader's light
    /// and buzzer (`[nfc] feedback`); nil leaves the reader alone.
    public static func pcsc(logger: Logger, only: String? = nil, judge: (@Sendable (TagReading) -> Bool)? = nil) -> NFCTagReader {
        let reader = PCSCTagReader(system: SCard(), logger: logger, only: only, judge: judge)
        return NFCTagReader(backend: .pcsc, start: reader.taps(wantsNDEF:))
    }

    /// The libnfc backend on one device (nil: `LIBNFC_DEVICE` or libnfc's config).
    public static func libnfc(connstring: String?, logger: Logger) -> NFCTagReader {
        let reader = LibNFCTagReader(system: LibNFC(), connstring: connstring, logger: logger)
        return NFCTagReader(backend: .libnfc, start: reader.taps(wantsNDEF:))
    }

    /// The backend `settings` asks for. `auto` takes PC/SC when pcscd has a
    /// reader, else libnfc when it can open a device, else PC/SC (so a
    /// reader plugged in later is still picked up through PnP).
    public static func configured(_ settings: NFCSettings, logger: Logger) -> NFCTagReader {
        let matcher = TagMatcher(tags: settings.tags)
        let judge: (@Sendable (TagReading) -> Bool)? = settings.feedback ? { @Sendable reading in matcher.rule(for: reading) != nil } : nil
        let pcsc: () -> NFCTagReader = { NFCTagReader.pcsc(logger: logger, only: settings.reader, judge: judge) }
        switch settings.backend {
        case .pcsc: return pcsc()
        case .libnfc: return libnfc(connstring: settings.connstring, logger: logger)
        case .auto:
            if (pcscReaderNames() ?? []).contains(where: { watches(reader: $0, only: settings.reader) }) {
                return pcsc()
            }
            if libnfcHasDevice(settings.connstring) { return libnfc(connstring: settings.connstring, logger: logger) }
            return pcsc()
        }
    }

    /// Taps until the consumer stops iterating (which aborts the blocking
    /// call) or the backend cannot work at all. `wantsNDEF(uidHex)` decides
    /// per tag whether the NDEF pages are read.
    public func taps(wantsNDEF: @escaping @Sendable (String) -> Bool) -> AsyncThrowingStream<TagReading, Error> {
        start(wantsNDEF)
    }

    /// Whether the PC/SC reader `name` is watched: never a SAM slot, and
    /// only the one `[nfc] reader` names when it is set.
    public static func watches(reader name: String, only: String?) -> Bool {
        PCSCTagReader<SCard>.watches(name, only: only)
    }

    /// What pcscd says when asked for its readers (read-only, for `doctor`).
    public enum PCSCAnswer: Sendable, Equatable {
        /// The readers it lists now (never opened), maybe none.
        case readers([String])
        /// Nothing listens on its socket, or it does not answer.
        case unreachable
        /// It accepted the connection and closed it without answering: a
        /// pcscd built with polkit does that to a client its policy refuses
        /// (pcsc-lite's ContextThread, "Rejected unauthorized PC/SC client"),
        /// and libpcsclite reports `SCARD_W_SECURITY_VIOLATION` for it.
        case refused
    }

    public static func pcscAnswer() -> PCSCAnswer {
        let system = SCard()
        let established: Result<SCard.Context, SCardCallError> = Result { () throws(SCardCallError) in try system.establishContext() }
        let context: SCard.Context
        switch established {
        case .success(let value): context = value
        case .failure(let error):
            // libpcsclite says "no service" rather than "security violation"
            // when pcscd closed the connection before this client sent its
            // first request (a loaded machine): ask the socket itself.
            return error.code == .securityViolation || socketRefuses() ? .refused : .unreachable
        }
        defer { system.releaseContext(context) }
        guard let names = try? system.listReaders(context) else { return .unreachable }
        return .readers(names)
    }

    /// Whether pcscd's socket (`PCSCLITE_CSOCK_NAME`, else Debian's
    /// /run/pcscd/pcscd.comm) accepts a connection and closes it, within
    /// 2 s, without a word: a refusal, however slowly this client would have
    /// sent its request. Nothing listening, or a listener that waits for the
    /// request as pcscd does for a client it accepts: false.
    static func socketRefuses() -> Bool {
        let path = ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/pcscd/pcscd.comm"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return false }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var polled: Int32
        repeat { polled = poll(&ready, 1, 2000) } while polled < 0 && errno == EINTR
        guard polled > 0 else { return false }
        var byte: UInt8 = 0
        var got: Int
        repeat { got = recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) } while got < 0 && errno == EINTR
        return got == 0 || (got < 0 && errno == ECONNRESET)
    }

    /// The readers pcscd lists now (never opened); nil when pcscd cannot be reached.
    public static func pcscReaderNames() -> [String]? {
        if case .readers(let names) = pcscAnswer() { return names }
        return nil
    }

    static func libnfcHasDevice(_ connstring: String?) -> Bool {
        let system = LibNFC()
        guard let context = try? system.makeContext(),
              let device = try? system.open(context, connstring: connstring) else { return false }
        system.close(device)
        return true
    }
}
