import Testing

@Test func placeholder_DeskDaysCoreTests() { #expect(Bool(true)) }
