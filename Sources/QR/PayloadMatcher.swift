/// Decides whether a decoded QR payload is one of the user's office codes.
///
/// Rules come from `[qr] payloads` (exact text) and `[qr] prefixes` (the
/// payload starts with it, e.g. a badge series `deskdays:badge:`). Neither
/// list has names, and the payload itself must never reach the database or the
/// logs (docs/design.md "Data minimisation"), so the rule name is the entry's
/// position: `payload-1`, `payload-2`, … and `prefix-1`, … in configuration
/// order. An exact entry wins over a prefix; among prefixes the first listed wins.
public struct PayloadMatcher: Sendable, Equatable {
    public let payloads: [String]
    public let prefixes: [String]

    public init(payloads: [String], prefixes: [String]) {
        self.payloads = payloads
        self.prefixes = prefixes
    }

    /// Whether any rule is configured (with none, nothing can ever match).
    public var isEmpty: Bool { payloads.isEmpty && prefixes.allSatisfy(\.isEmpty) }

    /// The name of the rule `payload` matches, or nil.
    public func rule(for payload: String) -> String? {
        if let index = payloads.firstIndex(of: payload) { return "payload-\(index + 1)" }
        // An empty prefix would match every code in view, including ones on a
        // colleague's screen; it is treated as no rule at all.
        for (index, prefix) in prefixes.enumerated() where !prefix.isEmpty && payload.hasPrefix(prefix) {
            return "prefix-\(index + 1)"
        }
        return nil
    }
}
