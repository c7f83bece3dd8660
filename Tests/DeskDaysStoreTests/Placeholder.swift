import Testing

@Test func placeholder_DeskDaysStoreTests() { #expect(Bool(true)) }
