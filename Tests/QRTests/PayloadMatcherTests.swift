import QR
import Testing

/// `[qr] payloads` (exact) and `prefixes`, and the position-based rule names.
struct PayloadMatcherTests {
    let matcher = PayloadMatcher(payloads: ["deskdays:office:hq", "deskdays:office:lab"],
                                 prefixes: ["deskdays:badge:", "deskdays:office:"])

    /// One row: a decoded payload and the rule it must give (nil: no match).
    struct Case: Sendable, CustomTestStringConvertible {
        var payload: String
        var rule: String?
        var testDescription: String { "\(payload) → \(rule ?? "none")" }
    }

    @Test(arguments: [
        Case(payload: "deskdays:office:hq", rule: "payload-1"),
        Case(payload: "deskdays:office:lab", rule: "payload-2"),
        Case(payload: "deskdays:office:annex", rule: "prefix-2"),
        Case(payload: "deskdays:badge:0042", rule: "prefix-1"),
        Case(payload: "deskdays:office:hq ", rule: "prefix-2"),
        Case(payload: "DESKDAYS:OFFICE:HQ", rule: nil),
        Case(payload: "https://example.com/deskdays:office:hq", rule: nil),
        Case(payload: "", rule: nil),
    ])
    func rule(_ row: Case) {
        #expect(matcher.rule(for: row.payload) == row.rule)
    }

    @Test func exactEntryWinsOverAnEarlierPrefix() {
        let matcher = PayloadMatcher(payloads: ["a:b"], prefixes: ["a:"])
        #expect(matcher.rule(for: "a:b") == "payload-1")
    }

    @Test func emptyPrefixMatchesNothing() {
        let matcher = PayloadMatcher(payloads: [], prefixes: [""])
        #expect(matcher.isEmpty)
        #expect(matcher.rule(for: "anything") == nil)
    }

    @Test func rulesNeverCarryThePayload() {
        for payload in ["deskdays:office:hq", "deskdays:badge:0042"] {
            #expect(matcher.rule(for: payload)?.contains("deskdays") == false)
        }
    }
}
