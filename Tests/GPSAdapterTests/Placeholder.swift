import Testing

@Test func placeholder_GPSAdapterTests() { #expect(Bool(true)) }
