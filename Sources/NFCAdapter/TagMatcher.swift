import Localization
import DeskDaysCore
import DeskDaysConfig

/// Turns a tag reading into the name of the `[[nfc.tags]]` rule it matches.
/// UID rules are tried first (the UID is known before any page is read),
/// then NDEF rules, each in configuration order.
public struct TagMatcher: Sendable {
    private let uidRules: [(uid: String, name: String)]
    private let ndefRules: [(ndef: String, name: String)]

    public init(tags: [NFCSettings.Tag]) {
        uidRules = tags.compactMap { tag in tag.uid.map { (Self.normalizedUID($0), tag.name) } }
        ndefRules = tags.compactMap { tag in tag.ndef.map { ($0, tag.name) } }
    }

    /// Upper-case hex without separators, as `TagReading.uidHex` writes it,
    /// so `04:a2:24…` in a hand-written config still matches.
    static func normalizedUID(_ text: String) -> String {
        String(text.uppercased().filter { $0.isHexDigit })
    }

    /// The rule the UID alone matches.
    public func rule(uid: String) -> String? {
        uidRules.first { $0.uid == uid }?.name
    }

    /// Whether the NDEF area must be read to decide: no UID rule matched and
    /// some rule matches on NDEF content.
    public func needsNDEF(uid: String) -> Bool {
        (TagReading.isRandom(uidHex: uid) || rule(uid: uid) == nil) && !ndefRules.isEmpty
    }

    /// The rule a whole reading matches, or nil for an unknown tag. A random
    /// UID never matches a UID rule (it would be a coincidence); its NDEF
    /// content may still match.
    public func rule(for reading: TagReading) -> String? {
        if !reading.hasRandomUID, let name = rule(uid: reading.uidHex) { return name }
        guard case let .strings(strings) = reading.ndef else { return nil }
        return ndefRules.first { strings.contains($0.ndef) }?.name
    }

    /// Why two taps of one card cannot become a UID rule, in one sentence
    /// naming what works instead; nil when they can.
    public static func enrolmentProblem(first: TagReading, second: TagReading) -> String? {
        if first.hasRandomUID || second.hasRandomUID {
            return tr("this card shows a new number on every tap (a random UID), so it cannot be recognised by its UID; use an NTAG sticker or keyfob at the desk instead, enroll this card by its NDEF text (--by-ndef), or use a QR code.")
        }
        if first.uid != second.uid {
            return tr("the card showed a different number on the second tap, so it cannot be recognised by its UID; use an NTAG sticker or keyfob at the desk instead, enroll this card by its NDEF text (--by-ndef), or use a QR code.")
        }

        return nil
    }
}
