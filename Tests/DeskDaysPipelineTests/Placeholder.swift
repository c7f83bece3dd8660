import Testing

@Test func placeholder_DeskDaysPipelineTests() { #expect(Bool(true)) }
