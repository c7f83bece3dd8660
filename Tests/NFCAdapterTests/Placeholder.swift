import Testing

@Test func placeholder_NFCAdapterTests() { #expect(Bool(true)) }
