import Testing

@Test func placeholder_NDEFTests() { #expect(Bool(true)) }
