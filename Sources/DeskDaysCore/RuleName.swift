/// The name of a check-in rule ("hq", "desk"): the only thing about *where*
/// that is stored and logged (docs/design.md, "The privacy claim"), so it
/// must be a short name, never an SSID, a MAC, a tag UID or a payload.
public enum RuleName {
    /// At most this many characters.
    public static let maximumLength = 32

    /// Why `name` is not a rule name, or nil when it is one: 1–32 of
    /// A–Z, a–z, 0–9, `_`, `.`, `-`, not looking like a MAC address.
    public static func problem(_ name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.count <= maximumLength, allowed else {
            return tr("a rule name is 1 to \(maximumLength) letters, digits, '_', '.' or '-' (such as hq or desk)")
        }
        return nil
    }
}
