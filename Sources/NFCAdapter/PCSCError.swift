import CPCSC

/// A PC/SC return code (`LONG`), shaped like swift-system's `Errno`: named
/// members for the codes the adapter acts on, text from pcsc-lite's own
/// `pcsc_stringify_error`.
public struct PCSCError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    private init(_ code: LONG) { rawValue = Int(code) }

    public static let cancelled = PCSCError(SCARD_E_CANCELLED)
    public static let timeout = PCSCError(SCARD_E_TIMEOUT)
    public static let noService = PCSCError(SCARD_E_NO_SERVICE)
    public static let serviceStopped = PCSCError(SCARD_E_SERVICE_STOPPED)
    public static let noReadersAvailable = PCSCError(SCARD_E_NO_READERS_AVAILABLE)
    public static let unknownReader = PCSCError(SCARD_E_UNKNOWN_READER)
    public static let readerUnavailable = PCSCError(SCARD_E_READER_UNAVAILABLE)
    public static let noSmartcard = PCSCError(SCARD_E_NO_SMARTCARD)
    public static let invalidHandle = PCSCError(SCARD_E_INVALID_HANDLE)
    public static let removedCard = PCSCError(SCARD_W_REMOVED_CARD)
    public static let resetCard = PCSCError(SCARD_W_RESET_CARD)
    public static let unresponsiveCard = PCSCError(SCARD_W_UNRESPONSIVE_CARD)
    public static let unpoweredCard = PCSCError(SCARD_W_UNPOWERED_CARD)
    public static let sharingViolation = PCSCError(SCARD_E_SHARING_VIOLATION)
    public static let notTransacted = PCSCError(SCARD_E_NOT_TRANSACTED)
    public static let communicationError = PCSCError(SCARD_F_COMM_ERROR)
    /// What libpcsclite reports when pcscd closes a new connection without
    /// answering: a pcscd built with polkit does that to a refused client.
    public static let securityViolation = PCSCError(SCARD_W_SECURITY_VIOLATION)

    /// The card went away or stopped answering: the tap failed, the reader
    /// and the service are fine.
    public var isCardGone: Bool {
        [.removedCard, .resetCard, .unresponsiveCard, .unpoweredCard, .noSmartcard,
         .notTransacted, .sharingViolation].contains(self)
    }

    public var description: String {
        String(cString: pcsc_stringify_error(LONG(truncatingIfNeeded: rawValue)))
    }
}

/// A failed PC/SC call: which function, and its return code.
public struct SCardCallError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let code: PCSCError
    public var description: String { "\(call): \(code)" }
}
