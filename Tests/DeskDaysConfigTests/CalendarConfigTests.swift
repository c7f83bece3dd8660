import DeskDaysConfig
import DeskDaysCore
import Testing

/// `[calendar]` (docs/cli.md "Calendar"): words, defaults and problems at FILE:LINE.
@Suite struct CalendarConfigTests {
    @Test func wordsReplaceTheirDefaultsAndMatchWholeValuesInAnyCase() {
        let (config, problems) = ConfigLoader.parse("[calendar]\nfolder = \"cal\"\noffice = [\"In office\"]\nwrite = true\n",
                                                    file: "c.toml", baseDirectory: "/home/u/.config/deskdays")
        #expect(problems.isEmpty, "\(problems)")
        let calendar = try! #require(config.calendar)
        #expect(calendar.folder == "/home/u/.config/deskdays/cal" && calendar.write)
        #expect(calendar.meaning(of: " in OFFICE ") == .office && calendar.meaning(of: "Office") == nil)
        #expect(calendar.meaning(of: "pto") == .vacation && calendar.meaning(of: "PTO day") == nil)
    }

    @Test func problemsNameTheirLine() {
        let text = "[calendar]\noffice = [\"Office\"]\nremote = [\"office\", \"\"]\ncolour = \"red\"\n"
        let (config, problems) = ConfigLoader.parse(text, file: "c.toml")
        #expect(config.calendar == nil)
        let lines = problems.map(\.line)
        #expect(problems.contains { $0.line == 2 && $0.message.contains("\"Office\" is listed under both remote and office") }, "\(problems)")
        #expect(problems.contains { $0.line == 3 && $0.message.contains("empty word") }, "\(problems)")
        #expect(problems.contains { $0.line == 4 && $0.message.contains("unknown key \"colour\"") }, "\(problems)")
        #expect(problems.contains { $0.message.contains("needs folder") } && lines.allSatisfy { $0 >= 1 }, "\(problems)")
    }
}
