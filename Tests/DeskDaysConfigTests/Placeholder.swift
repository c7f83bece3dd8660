import Testing

@Test func placeholder_DeskDaysConfigTests() { #expect(Bool(true)) }
