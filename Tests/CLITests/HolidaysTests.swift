import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays holidays` and `[policy] holidays_region`
/// (data/holidays/README.md): the shipped data as the library gives it, the
/// listing with the configuration's own holidays, `explain`'s source, and
/// an unknown region.
@Suite struct HolidaysTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The pinned library version (tools/holidays/VERSION).
    static let version = (try? String(contentsOf: root.appendingPathComponent("tools/holidays/VERSION"), encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    /// Where `make holidays` and `make test`'s dependencies install the pinned library.
    static let library = root.appendingPathComponent(".build/holidays-lib").path

    /// The pinned library's version importable by /usr/bin/python3 with `library` on its path, or nil.
    static func libraryVersion() async -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
              let output = try? await Program.run("/usr/bin/python3", ["-c", "import holidays; print(holidays.__version__)"],
                                                  environment: ["PYTHONPATH": library]),
              output.status == 0 else { return nil }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func json(_ result: CLIRunner.Result) throws -> [String: Any] {
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// date → (name, English name) of `holidays --json`.
    static func listed(_ object: [String: Any]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entry in object["holidays"] as? [[String: Any]] ?? [] {
            result[entry["date"] as? String ?? "?"] = [entry["name"] as? String ?? "", entry["name_en"] as? String ?? ""]
        }
        return result
    }

    /// Every date and name of a few region-years, against the pinned
    /// library itself (installed by `make test`'s dependencies).
    @Test(.enabled("the pinned holidays library is not importable by /usr/bin/python3 from .build/holidays-lib: make holidays-lib") {
        await libraryVersion() == version
    })
    func theDataIsTheLibrarys() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let cases = [("DE-BY", 2026), ("DE-BE", 2026), ("US-CA", 2026), ("GB-SCT", 2026), ("FR", 2024), ("JP", 2031), ("IN-MH", 2029), ("AU-NSW", 2040), ("BR-SP", 2020)]
        let script = """
        import json, sys, holidays
        out = {}
        for region, year in json.loads(sys.argv[1]):
            country, _, subdiv = region.partition("-")
            cls = getattr(holidays, country)
            local = holidays.country_holidays(country, subdiv=subdiv or None, years=year, language=cls.default_language)
            english = next((l for l in ("en_US", "en_GB", "en") if l in cls.supported_languages), None)
            en = holidays.country_holidays(country, subdiv=subdiv or None, years=year, language=english) if english else {}
            out[region] = {str(d): [" ".join(n.split()), " ".join(en.get(d, "").split())] for d, n in local.items()}
        print(json.dumps(out))
        """
        let argument = "[" + cases.map { "[\"\($0.0)\", \($0.1)]" }.joined(separator: ",") + "]"
        let output = try await Program.run("/usr/bin/python3", ["-c", script, argument], environment: ["PYTHONPATH": Self.library])
        try #require(output.status == 0, "\(output.stderr)")
        let library = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: [String: [String]]])
        for (region, year) in cases {
            let listed = Self.listed(try Self.json(await cli.run(["holidays", "--region", region, "--year", String(year), "--json"])))
            // The data leaves out an English name equal to the local one.
            let expected = (library[region] ?? [:]).mapValues { $0[1] == $0[0] ? [$0[0], ""] : $0 }
            #expect(!listed.isEmpty && listed == expected, "\(region) \(year)")
        }
    }

    /// Without Python: Epiphany is Bavaria's and not Berlin's; the listing
    /// names the library's version.
    @Test func aRegionsListing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let bavaria = try Self.json(await cli.run(["holidays", "--region", "de-by", "--year", "2026", "--json"]))
        #expect(bavaria["region"] as? String == "DE-BY" && bavaria["year"] as? Int == 2026 && bavaria["version"] as? String == Self.version)
        #expect(Self.listed(bavaria)["2026-01-06"] == ["Heilige Drei Könige", "Epiphany"], "\(bavaria)")
        let berlin = try Self.json(await cli.run(["holidays", "--region", "DE-BE", "--year", "2026", "--json"]))
        #expect(Self.listed(berlin)["2026-01-06"] == nil && Self.listed(berlin)["2026-03-08"] == ["Frauentag", "Women's Day"])
        let text = try await cli.run(["holidays", "--region", "DE-BY", "--year", "2026"])
        #expect(text.status == 0 && text.stdout.hasPrefix("Holidays in 2026, DE-BY from the holidays library \(Self.version):\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\n2026-01-06  tue  Heilige Drei Könige (Epiphany)\n"), "\(text.stdout)")
        let version = try await cli.run(["holidays", "--version"])
        #expect(version.status == 0 && version.stdout.contains("holidays library \(Self.version) (PyPI, MIT), 2020–2040"), "\(version.stdout)\(version.stderr)")
        let regions = try await cli.run(["holidays", "--regions"])
        #expect(regions.stdout.split(separator: "\n").contains("GB-SCT"))
        // Years outside the data, and a code it does not know: one sentence, exit 1.
        let late = try await cli.run(["holidays", "--region", "DE-BY", "--year", "2045"])
        #expect(late.status == 1 && late.stderr.contains("covers 2020–2040"), "\(late.stderr)")
        let unknown = try await cli.run(["holidays", "--region", "DE-BX"])
        #expect(unknown.status == 1 && unknown.stderr.contains("did you mean \"DE-BB\""), "\(unknown.stderr)")
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
    }

    /// The configured region, an .ics and `[[holidays]]` together: the
    /// listing names each source, the policy counts them all as holidays,
    /// and `explain` says where a date's holiday comes from.
    @Test func theConfiguredRegionWithOwnHolidays() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let ics = cli.folder.appendingPathComponent("own.ics").path
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:a@test\r\nDTSTART;VALUE=DATE:20260720\r\nSUMMARY:Betriebsausflug\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: ics, atomically: true, encoding: .utf8)
        try cli.writeConfig("""
        [policy]
        holidays_region = "DE-BY"
        holidays_ics = "\(ics)"

        [[holidays]]
        date = "2026-03-19"
        name = "Team day"
        """)
        let today = ["--today", "2026-11-20"]
        // A database to read (a named one must exist).
        try #require(try await cli.run(["checkin", "--date", "2026-11-16"] + today).status == 0)
        let listing = try Self.json(await cli.run(["holidays", "--json"] + today))
        let entries = listing["holidays"] as? [[String: Any]] ?? []
        func source(_ date: String) -> String? { entries.first { $0["date"] as? String == date }?["source"] as? String }
        #expect(listing["region"] as? String == "DE-BY" && listing["year"] as? Int == 2026)
        #expect(source("2026-01-06") == "region" && source("2026-03-19") == "config" && source("2026-07-20") == "holidays_ics", "\(entries)")
        let text = try await cli.run(["holidays"] + today)
        #expect(text.stdout.contains("2026-03-19  thu  Team day  from [[holidays]]\n") && text.stdout.contains("Betriebsausflug  from \(ics)"), "\(text.stdout)")
        // The policy engine sees the region's holidays as any other.
        let days = try await cli.run(["days", "--from", "2026-01-05", "--to", "2026-01-07", "--json"] + today)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]], "\(days.stderr)")
        #expect(rows.map { $0["workday"] as? Bool } == [true, false, true], "\(rows)")
        let epiphany = try await cli.run(["explain", "2026-01-06"] + today)
        #expect(epiphany.stdout.contains("is a holiday (DE-BY: Heilige Drei Könige, from the public holidays shipped with DeskDays)"), "\(epiphany.stdout)\(epiphany.stderr)")
        let team = try await cli.run(["explain", "2026-03-19"] + today)
        #expect(team.stdout.contains("is a holiday (Team day, from [[holidays]] in the configuration)"), "\(team.stdout)")
        // `config show` names the region and lists its dates with the others.
        let shown = try await cli.run(["config", "show"])
        #expect(shown.stdout.contains("holidays_region = 'DE-BY'") && shown.stdout.contains("name = 'Fronleichnam'"), "\(shown.stdout)")
        let outing = try await cli.run(["explain", "2026-07-20"] + today)
        #expect(outing.stdout.contains("is a holiday (Betriebsausflug, from \(ics))"), "\(outing.stdout)")
    }

    /// An unknown region in the configuration: `config check` names its line and the nearest codes, exit 1.
    @Test func anUnknownRegionFailsConfigCheck() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\nholidays_region = \"GB-SCO\"\n")
        let check = try await cli.run(["config", "check"])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("config.toml:2: unknown holidays_region \"GB-SCO\"; did you mean \"GB-SCT\""), "\(check.stderr)")
    }
}
