import NDEF

/// What one tap read from a tag. Held in memory only: the UID and the NDEF
/// strings are matched against the rules and then dropped, never logged or
/// stored (docs/design.md, privacy).
public struct TagReading: Sendable, Equatable {
    /// What came of reading the NDEF area.
    public enum NDEFOutcome: Sendable, Equatable {
        /// Not read: a UID rule already matched, so the pages were not needed.
        case notRead
        /// The tag is not NDEF-formatted, or its data area holds no NDEF TLV.
        case absent
        /// The texts and URIs of the message (NDEFContent.matchableStrings).
        case strings([String])
        /// The area or the message is malformed.
        case malformed(NDEFError)
        /// The reader refused the page reads (not a Type 2 tag, e.g. a bank card).
        case unreadable
    }

    public var uid: [UInt8]
    public var ndef: NDEFOutcome

    public init(uid: [UInt8], ndef: NDEFOutcome) {
        self.uid = uid
        self.ndef = ndef
    }

    /// The UID as the configuration writes it: upper-case hex, no separators.
    /// A 4-byte UID starting 0x08 is a random ID (ISO/IEC 14443-3): the
    /// card (a DESFire or NTAG with random ID, HID Seos, a phone wallet)
    /// shows a new one on every tap, so it can never be a rule.
    public var hasRandomUID: Bool { Self.isRandom(uidHex: uidHex) }

    /// The same, for a UID written as `uidHex` writes it.
    public static func isRandom(uidHex: String) -> Bool { uidHex.count == 8 && uidHex.hasPrefix("08") }

    public var uidHex: String { uid.map { String($0, radix: 16, uppercase: true).leftPadded() }.joined() }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
