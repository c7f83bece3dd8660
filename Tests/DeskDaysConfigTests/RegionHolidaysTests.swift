import DeskDaysConfig
import DeskDaysCore
import Foundation
import Testing

/// `[policy] holidays_region`: the shipped data (data/holidays/holidays.tsv,
/// found from the test bundle in .build as from a built program) read into
/// the policy's holidays, beside `[[holidays]]`, with each date's source.
@Suite struct RegionHolidaysTests {
    static func day(_ text: String) -> LocalDate { LocalDate(text)! }

    static func parse(_ text: String) -> (Configuration, [ConfigProblem]) {
        ConfigLoader.parse(text, file: "config.toml")
    }

    static func data() throws -> HolidayData {
        try #require(HolidayData.installed, "data/holidays/holidays.tsv not found from \(HolidayData.candidates(executable: Bundle.main.executablePath))")
    }

    @Test func aRegionsPublicHolidaysAreThePolicysHolidays() throws {
        let (bavaria, problems) = Self.parse("[policy]\nholidays_region = \"de-by\"\n")
        #expect(problems.isEmpty, "\(problems)")
        #expect(bavaria.holidaysRegion == "DE-BY")
        #expect(bavaria.policy.holidays[Self.day("2026-01-06")] == "Heilige Drei Könige")
        #expect(bavaria.holidaySources[Self.day("2026-01-06")] == .region("DE-BY"))
        #expect(!bavaria.policy.isWorkday(Self.day("2026-01-06")) && bavaria.policy.isWorkday(Self.day("2026-01-07")))
        // Berlin: no Epiphany, but Women's Day; both have the national days, 2020 to 2040.
        let (berlin, _) = Self.parse("[policy]\nholidays_region = \"DE-BE\"\n")
        #expect(berlin.policy.holidays[Self.day("2026-01-06")] == nil)
        #expect(berlin.policy.holidays[Self.day("2026-03-08")] == "Frauentag")
        for date in ["2020-10-03", "2040-12-25"] {
            #expect(berlin.policy.holidays[Self.day(date)] != nil && bavaria.policy.holidays[Self.day(date)] != nil, "\(date)")
        }
        // Without the key, nothing changes: no holidays at all.
        #expect(Self.parse("[policy]\n").0.policy.holidays.isEmpty)
        #expect(Self.parse("[policy]\nholidays_region = \"\"\n").0.policy.holidays.isEmpty)
    }

    /// Fixed dates of other regions, as the library's version gives them
    /// (the whole years are compared with the library in HolidaysTests).
    @Test func knownDatesOfOtherRegions() throws {
        let data = try Self.data()
        let california = data.holidays(region: "US-CA")
        #expect(california[Self.day("2026-03-31")]?.name == "Cesar Chavez Day")
        // 4 July 2026 is a Saturday: the Friday before is observed.
        #expect(california[Self.day("2026-07-03")]?.name == "Independence Day (observed)")
        let scotland = data.holidays(region: "GB-SCT"), england = data.holidays(region: "GB-ENG")
        #expect(scotland[Self.day("2026-01-02")] != nil && england[Self.day("2026-01-02")] == nil)
        #expect(scotland[Self.day("2026-11-30")]?.name == "Saint Andrew's Day")
        #expect(england[Self.day("2026-08-31")]?.name == "Late Summer Bank Holiday" && scotland[Self.day("2026-08-31")] == nil)
        // English when the library has a translation; none when it is the local name.
        #expect(data.holidays(region: "DE-BY")[Self.day("2026-01-06")] == RegionHoliday(name: "Heilige Drei Könige", englishName: "Epiphany"))
        #expect(england[Self.day("2026-12-25")]?.englishName == nil)
        #expect(data.regions.count > 800 && Set(data.regions.map { $0.prefix(2) }).count > 200, "\(data.regions.count)")
        #expect(data.region("us-ca") == "US-CA" && data.region("DE-XX") == nil && data.region("XX") == nil)
    }

    /// `[[holidays]]` and an `.ics` add to the region's list; a date they
    /// name keeps their name, and each date says where it came from.
    @Test func ownHolidaysAddToTheRegionsAndKeepTheirNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-region-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:a@test\r
        DTSTART;VALUE=DATE:20260720\r
        SUMMARY:Betriebsausflug\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(to: folder.appendingPathComponent("own.ics"), atomically: true, encoding: .utf8)
        let (configuration, problems) = ConfigLoader.parse("""
        [[holidays]]
        date = "2026-01-06"
        name = "Dreikönig"

        [policy]
        holidays_region = "DE-BY"
        holidays_ics = "own.ics"

        [[holidays]]
        date = "2026-03-19"
        name = "Team day"
        """, file: "config.toml", baseDirectory: folder.path)
        #expect(problems.isEmpty, "\(problems)")
        let holidays = configuration.policy.holidays, sources = configuration.holidaySources
        #expect(holidays[Self.day("2026-01-06")] == "Dreikönig" && sources[Self.day("2026-01-06")] == .configuration)
        #expect(holidays[Self.day("2026-03-19")] == "Team day" && sources[Self.day("2026-03-19")] == .configuration)
        #expect(holidays[Self.day("2026-07-20")] == "Betriebsausflug" && sources[Self.day("2026-07-20")] == .calendarFile(folder.path + "/own.ics"))
        #expect(holidays[Self.day("2026-06-04")] == "Fronleichnam" && sources[Self.day("2026-06-04")] == .region("DE-BY"))
    }

    /// An unknown region is a problem at its line, with the nearest codes.
    @Test func anUnknownRegionIsAProblemWithSuggestions() throws {
        let (configuration, problems) = Self.parse("[policy]\ntimezone = \"UTC\"\nholidays_region = \"DE-BX\"\n")
        let problem = try #require(problems.first)
        #expect(problems.count == 1 && problem.line == 3, "\(problems)")
        #expect(problem.message.hasPrefix("unknown holidays_region \"DE-BX\"; did you mean \"DE-BB\", \"DE-BE\""), "\(problem.message)")
        #expect(configuration.policy.holidays.isEmpty && configuration.holidaysRegion == nil)
        // An unknown country: the nearest countries.
        let germany = Self.parse("[policy]\nholidays_region = \"DEU\"\n").1
        #expect(germany.first?.message.contains("\"DE\"") == true, "\(germany)")
        // A value nothing is near, however long, is still one sentence.
        let far = Self.parse("[policy]\nholidays_region = \"\(String(repeating: "Q", count: 5000))\"\n").1
        #expect(far.count == 1 && far[0].message.contains("such as \"DE-BY\""), "\(far)")
        #expect(Self.parse("[policy]\nholidays_region = 49\n").1.count == 1)
    }
}
