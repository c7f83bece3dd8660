import Testing

@Test func placeholder_NMEATests() { #expect(Bool(true)) }
