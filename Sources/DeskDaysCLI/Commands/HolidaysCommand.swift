import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports

/// `deskdays holidays`: the holidays in force in a year, with their names
/// and sources (data/holidays/README.md).
struct HolidaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holidays", abstract: tr("List the holidays in force in a year: the region's public holidays and your own."))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("The year (default: this year).")))
    var year: Int?

    @Option(help: ArgumentHelp(tr("A region's public holidays alone, such as DE-BY (default: holidays_region with your own holidays).")))
    var region: String?

    @Flag(help: ArgumentHelp(tr("Print JSON (docs/cli.md).")))
    var json = false

    @Flag(name: .customLong("version"), help: ArgumentHelp(tr("Name the holidays library version the shipped data comes from.")))
    var dataVersion = false

    @Flag(help: ArgumentHelp(tr("List the region codes the shipped data knows.")))
    var regions = false

    func run() async throws {
        if dataVersion || regions {
            let data = try Self.data()
            if regions { data.regions.forEach { print($0) }; return }
            print(tr("Public holidays from the holidays library \(data.version) (PyPI, MIT), \(Localization.figure(String(data.years.lowerBound)))–\(Localization.figure(String(data.years.upperBound))): \(data.path)"))
            return
        }
        let session = try Session(global)
        let year = self.year ?? session.today.year
        // The region's data alone (--region), or everything the configuration holds.
        var holidays: [(date: LocalDate, name: String, english: String?, source: String, file: String?)] = []
        let shown: String?
        if let region, region.uppercased() != session.configuration.holidaysRegion {
            let data = try Self.data()
            guard let known = data.region(region) else {
                let near = data.suggestions(for: region).map { "\"\($0)\"" }.joined(separator: ", ")
                throw CLIError(near.isEmpty ? tr("--region \(region) is not in the shipped holiday data; `deskdays holidays --regions` lists the codes.")
                                            : tr("--region \(region) is not in the shipped holiday data; did you mean \(near)?"))
            }
            shown = known
            try Self.check(year, in: data)
            for (date, holiday) in data.holidays(region: known) where date.year == year {
                holidays.append((date, holiday.name, holiday.englishName, "region", nil))
            }
        } else {
            shown = session.configuration.holidaysRegion
            var regional: [LocalDate: RegionHoliday] = [:]
            if let shown {
                let data = try Self.data()
                try Self.check(year, in: data)
                regional = data.holidays(region: shown)
            }
            for (date, name) in session.policy.holidays where date.year == year {
                switch session.configuration.holidaySources[date] {
                case .region?: holidays.append((date, name, regional[date]?.englishName, "region", nil))
                case .calendarFile(let file)?: holidays.append((date, name, nil, "holidays_ics", file))
                case .configuration?: holidays.append((date, name, nil, "config", nil))
                case nil: holidays.append((date, name, nil, "calendar", session.configuration.calendar?.folder))
                }
            }
        }
        holidays.sort { $0.date < $1.date }
        if json {
            print(try Render.json(Listing(year: year, region: shown, version: HolidayData.installed?.version,
                                          holidays: holidays.map { Entry(date: $0.date.description, name: $0.name, nameEn: $0.english,
                                                                         source: $0.source, file: $0.file) })))
            return
        }
        let locale = session.reportLocale
        let figureYear = Localization.figure(String(year))
        if holidays.isEmpty {
            print(tr("No holidays in \(figureYear)."))
            if shown == nil {
                print(tr("Set holidays_region in [policy] (such as \"DE-BY\") for your region's public holidays; `deskdays holidays --regions` lists the codes."))
            }
            return
        }
        if let shown, let version = HolidayData.installed?.version {
            print(tr("Holidays in \(figureYear), \(shown) from the holidays library \(version):"))
        } else {
            print(tr("Holidays in \(figureYear):"))
        }
        let weekdayWidth = Weekday.allCases.map { Localization.displayWidth(Words.weekdayShort($0, locale: locale)) }.max() ?? 3
        for holiday in holidays {
            var line = "\(Localization.figure(holiday.date.description))  \(Words.padded(Words.weekdayShort(holiday.date.weekday, locale: locale), weekdayWidth))  \(Printable.escaped(holiday.name))"
            if let english = holiday.english { line += " (\(Printable.escaped(english)))" }
            switch holiday.source {
            case "config": line += "  " + tr("from [[holidays]]")
            case "holidays_ics": line += "  " + tr("from \(Printable.escaped(holiday.file ?? ""))")
            case "calendar": line += "  " + tr("from the calendar folder")
            default: break
            }
            print(line)
        }
    }

    /// The shipped data, or why it cannot be read.
    static func data() throws -> HolidayData {
        guard let data = HolidayData.installed else {
            throw CLIError(tr("The holiday data shipped with DeskDays is missing (share/deskdays/holidays.tsv); reinstall DeskDays."))
        }
        return data
    }

    static func check(_ year: Int, in data: HolidayData) throws {
        guard data.years ~= year else {
            throw CLIError(tr("The shipped holiday data covers \(data.years.lowerBound)–\(data.years.upperBound); choose a year in it, or list \(year)'s holidays with [[holidays]] or holidays_ics."))
        }
    }

    struct Listing: Encodable {
        let year: Int
        let region: String?
        let version: String?
        let holidays: [Entry]
    }

    struct Entry: Encodable {
        let date: String
        let name: String
        let nameEn: String?
        let source: String
        let file: String?

        enum CodingKeys: String, CodingKey {
            case date, name, nameEn = "name_en", source, file
        }
    }
}
