import CNFC

/// A libnfc return code (`NFC_E…`), shaped like swift-system's `Errno`.
/// The text is libnfc's own (its `nfc_strerror` table, which needs a device
/// handle, so the strings are kept here for errors from `nfc_open` too).
public struct LibNFCError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let io = LibNFCError(rawValue: NFC_EIO)
    public static let invalidArgument = LibNFCError(rawValue: NFC_EINVARG)
    public static let deviceNotSupported = LibNFCError(rawValue: NFC_EDEVNOTSUPP)
    public static let noSuchDevice = LibNFCError(rawValue: NFC_ENOTSUCHDEV)
    public static let overflow = LibNFCError(rawValue: NFC_EOVFLOW)
    public static let timeout = LibNFCError(rawValue: NFC_ETIMEOUT)
    public static let operationAborted = LibNFCError(rawValue: NFC_EOPABORTED)
    public static let notImplemented = LibNFCError(rawValue: NFC_ENOTIMPL)
    public static let targetReleased = LibNFCError(rawValue: NFC_ETGRELEASED)
    public static let rfTransmission = LibNFCError(rawValue: NFC_ERFTRANS)
    public static let mifareAuthentication = LibNFCError(rawValue: NFC_EMFCAUTHFAIL)
    public static let software = LibNFCError(rawValue: NFC_ESOFT)
    public static let chip = LibNFCError(rawValue: NFC_ECHIP)

    /// The tag left the field or did not answer: the device itself is fine.
    public var isTagGone: Bool { [.timeout, .targetReleased, .rfTransmission, .chip].contains(self) }

    public var description: String {
        switch self {
        case .io: "Input / Output Error"
        case .invalidArgument: "Invalid argument(s)"
        case .deviceNotSupported: "Not Supported by Device"
        case .noSuchDevice: "No Such Device"
        case .overflow: "Buffer Overflow"
        case .timeout: "Timeout"
        case .operationAborted: "Operation Aborted"
        case .notImplemented: "Not (yet) Implemented"
        case .targetReleased: "Target Released"
        case .rfTransmission: "RF Transmission Error"
        case .mifareAuthentication: "Mifare Authentication Failed"
        case .software: "Software Error"
        case .chip: "Device's Internal Chip Error"
        default: "Unknown error \(rawValue)"
        }
    }
}

/// A failed libnfc call: which function, and its return code.
public struct LibNFCCallError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let code: LibNFCError
    public var description: String { "\(call): \(code)" }
}
