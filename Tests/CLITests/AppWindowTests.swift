import Foundation
import Spawn
import TestSupport
import Testing

/// The app's window as a user opens it (Tests/Harness/app/session.py): a private X server and
/// session bus, the accessibility bus, the desktop entry's Exec line, the agent started by D-Bus
/// activation from the shipped service file. The window is read and pressed by accessible name
/// (pyatspi, as a screen reader does) and checked against the real `deskdays`: the same week
/// figure and period line as `status`, Check in reaching the database, another process's write
/// reaching the window; then German, Arabic (mirrored) and the dark style. The screenshots go to
/// `DESKDAYS_SCREENSHOTS` when set (data/screenshots/ holds the ones the metainfo names).
@Suite(.tags(.hardwareBench), .serialized) struct AppWindowTests {
    static let missing: String? = {
        for (tool, package) in [("Xvfb", "xvfb"), ("dbus-daemon", "dbus-daemon"), ("import", "imagemagick"),
                                ("convert", "imagemagick"), ("msgfmt", "gettext")] where !toolExists(tool) {
            return "\(tool) not installed: apt-get install \(package)"
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher") else {
            return "at-spi-bus-launcher not installed: apt-get install at-spi2-core"
        }
        guard pythonModuleInstalled("pyatspi") else { return "pyatspi not installed: apt-get install python3-pyatspi gir1.2-atspi-2.0" }
        guard FileManager.default.isExecutableFile(atPath: app) else { return "\(app) not built: swift build --product deskdays-app" }
        return nil
    }()

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var binDir: String { (CLIRunner.binary as NSString).deletingLastPathComponent }
    static var app: String { binDir + "/deskdays-app" }

    static let config = """
    [policy]
    timezone = "UTC"
    period = "quarter"

    [policy.target]
    kind = "days_per_week"
    value = 3
    """

    /// What the session saw (session.py's JSON).
    struct Seen: Decodable {
        var week: String?
        var period: String?
        var error: String?
        var check_in_button: Bool?
        var after_check_in: String?
        var days_after_check_in: String?
        var after_other_write: String?
        var buttons_x: [String: Int]?
        var background: String?
        var screenshots: [String]?
        var banner: String?
        var restarted: Bool?
        var week_after_restart: String?
        var plan_days: [String]?
        var toggles: [String]?
        var toggle_roles: [String]?
        var after_avoid: [String]?
        var avoided_line: String?
        var added: String?
        var plan_after: String?
        var charts: [String]?
        var milestones: String?
        var switch_role: String?
        var rows: [String]?
        var config_after: String?
        var toast: String?
        var steps: [String]?
        var welcome: String?
        var learned: String?
        var qr_found: String?
    }

    /// Runs one session; `environment` is the app's (language, style) and the script's switches.
    func session(_ cli: CLIRunner, _ environment: [String: String], shots: String) async throws -> Seen {
        let script = Self.root.appendingPathComponent("Tests/Harness/app/session.py").path
        let arguments = [script, cli.folder.path, Self.binDir, Self.root.appendingPathComponent("data/io.github.deskdays.DeskDays.desktop").path,
                         Self.root.appendingPathComponent("config/io.github.deskdays.DeskDays1.service").path, shots]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try await Program.run("/usr/bin/python3", arguments)
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let app = (try? String(contentsOf: cli.folder.appendingPathComponent("app.log"), encoding: .utf8)) ?? ""
        let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(line.utf8)),
                                "session.py printed no result: \(result.stdout)\(result.stderr)\napp: \(app)")
        #expect(seen.error == nil, "\(seen.error ?? "")\n\(result.stderr)\napp: \(app)")
        #expect(!app.contains("CRITICAL") && !app.contains("crashed"), "\(app)")
        return seen
    }

    func prepared() throws -> CLIRunner {
        let cli = try CLIRunner()
        let folder = cli.folder.appendingPathComponent("xdg-config/deskdays")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.config.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return cli
    }

    /// The CLI in the session's files (the XDG folders session.py gives the agent).
    func status(_ cli: CLIRunner, _ environment: [String: String] = [:]) async throws -> String {
        // Its first line: the period line and the week figure (streaks and hints follow).
        try await run(cli, ["status"], environment).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// A command's output in the session's files, without the agent.
    func run(_ cli: CLIRunner, _ arguments: [String], _ environment: [String: String] = [:]) async throws -> String {
        var env = ["XDG_CONFIG_HOME": cli.folder.appendingPathComponent("xdg-config").path,
                   "XDG_DATA_HOME": cli.folder.appendingPathComponent("xdg-data").path,
                   "XDG_RUNTIME_DIR": cli.folder.appendingPathComponent("run").path,
                   "DESKDAYS_NOW": "2026-11-18T09:30:00Z"]
        for (key, value) in environment { env[key] = value }
        return try await cli.run(arguments + ["--socket", "/nonexistent/agent.sock"], paths: false, environment: env).stdout
    }

    static var screenshots: String? { ProcessInfo.processInfo.environment["DESKDAYS_SCREENSHOTS"] }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theWindowReadsWhatStatusSaysRecordsAndFollowsOtherWrites() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let expected = try await status(cli)
        let shots = Self.screenshots.map { $0 + "/en" } ?? ""
        let seen = try await session(cli, ["SCENARIO": "full", "PAGES": "Calendar,Insights"], shots: shots)
        // The status line is the period line, then the week figure: the same messages, the same figures.
        #expect(seen.week == "This week: 0 of 3 office days.", "\(seen)")
        // (The status line goes on with the streak, which the window does not show yet.)
        #expect(expected.hasPrefix("\(seen.period ?? "") \(seen.week ?? "")"), "\(expected) vs \(seen)")
        #expect(seen.check_in_button == true)
        #expect(seen.after_check_in == "This week: 1 of 3 office days.")
        let days = try #require(seen.days_after_check_in)
        #expect(days.contains("\"status\" : \"office\"") && days.contains("\"origin\" : \"manual\""), "\(days)")
        #expect(seen.after_other_write == "This week: 2 of 3 office days.")
    }

    /// The Plan page shows the planner's days (`deskdays plan`), a day avoided leaves the plan,
    /// "Add to my plans" writes the rest as plans (the CLI's plan then has nothing new), and
    /// Insights shows the reports' two charts, named by their own titles.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func thePlanPageWritesThePlannersDaysAndInsightsShowTheCharts() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let seen = try await session(cli, ["SCENARIO": "plan"], shots: Self.screenshots.map { $0 + "/en" } ?? "")
        let days = try #require(seen.plan_days)
        #expect(!days.isEmpty && days.allSatisfy { $0.hasPrefix("Avoid ") }, "\(seen)")
        #expect(seen.toggles == ["Mon", "Tue", "Wed", "Thu", "Fri"], "\(seen.toggle_roles ?? [])")
        let avoided = try #require(days.first).dropFirst("Avoid ".count)
        #expect(seen.after_avoid.map { !$0.contains("Avoid \(avoided)") } == true, "\(seen)")
        #expect(seen.avoided_line == "Not planned: \(avoided)", "\(seen)")
        #expect(seen.added?.hasPrefix("Added ") == true && seen.added?.hasSuffix(" office days to your plans.") == true, "\(seen)")
        // Written as plans: the planner (which does not avoid that day) finds all but the avoided one recorded.
        let plan = try #require(seen.plan_after)
        let new = try #require((try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any])?["new"] as? [String], "\(plan)")
        #expect(new.count == 1, "\(plan)")
        let charts = try #require(seen.charts)
        #expect(charts.contains { $0.hasPrefix("Office days per week — ") } && charts.contains { $0.hasPrefix("Office days — ") }, "\(charts)")
        // The milestones are `report`'s own line.
        let milestones = try #require(seen.milestones)
        let report = try await run(cli, ["report"])
        #expect(report.split(separator: "\n").contains { $0 == milestones }, "\(milestones) not in \(report)")
    }

    /// Preferences show the rule as setup asks it and a switch per check-in method, each named by
    /// its label; turning on pro rata writes `reduce = "pro-rata"` through the agent, comments kept.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func preferencesWriteTheRuleThroughTheAgentKeepingComments() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("xdg-config/deskdays/config.toml")
        try ("# HR's rule, from the handbook\n" + Self.config).write(to: file, atomically: true, encoding: .utf8)
        // What `enroll qr` says on this machine (without a camera: that there is none), as the Learn button's toast should.
        let enroll = try await cli.run(["enroll", "qr", "--timeout=20"], paths: false,
                                       environment: ["XDG_CONFIG_HOME": cli.folder.appendingPathComponent("xdg-config").path,
                                                     "XDG_DATA_HOME": cli.folder.appendingPathComponent("xdg-data").path])
        let said = (enroll.status == 0 ? enroll.stdout.split(separator: "\n").first.map(String.init)
                                       : enroll.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
        let learned = said.hasPrefix("deskdays: ") ? String(said.dropFirst("deskdays: ".count)) : said
        let seen = try await session(cli, ["SCENARIO": "preferences", "LEARNED": learned], shots: Self.screenshots.map { $0 + "/en" } ?? "")
        let rows = try #require(seen.rows)
        #expect(["The office Wi-Fi", "NFC tag on your desk reader", "Docked at the office (its gateway)"].allSatisfy(rows.contains), "\(rows)")
        let config = try #require(seen.config_after)
        #expect(config.contains("reduce = \"pro-rata\"") && config.hasPrefix("# HR's rule, from the handbook\n"), "\(config)")
        // The reader sees the question answered, not the configuration's key.
        #expect(seen.toast == "Saved: Holidays, leave and sick days reduce the days you owe.", "\(seen)")
        #expect(!learned.isEmpty && seen.learned == learned, "\(seen)")
        #expect(seen.qr_found != nil, "the QR row says what this machine has")
    }

    /// First run: with no configuration the window greets, and its button opens the rule's
    /// questions; the first answer writes the configuration file.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theFirstRunOpensOnTheRulesQuestions() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("xdg-config/deskdays/config.toml")
        try FileManager.default.removeItem(at: file)
        let seen = try await session(cli, ["SCENARIO": "firstrun"], shots: Self.screenshots.map { $0 + "/en" } ?? "")
        #expect(seen.welcome == "Welcome to DeskDays", "\(seen)")
        #expect(seen.config_after?.contains("reduce = \"pro-rata\"") == true, "\(seen)")
    }

    @Test(.enabled(if: missing == nil && Catalogs.available, Comment(rawValue: missing ?? "msgfmt not installed: apt-get install gettext")))
    func germanAndArabicMirroredFromTheSameCatalogs() async throws {
        let locale = try await Catalogs.compiled(["de", "ar"])
        defer { try? FileManager.default.removeItem(at: locale) }
        for (language, prefix) in [("de", "Diese Woche:"), ("ar", "هذا الأسبوع:")] {
            let cli = try prepared()
            defer { cli.cleanup() }
            let environment = ["LANG": language == "ar" ? "ar_EG.UTF-8" : "de_DE.UTF-8", "LANGUAGE": language, "DESKDAYS_LOCALEDIR": locale.path]
            let expected = try await status(cli, environment.merging(["LC_ALL": ""]) { $1 })
            let checkIn = try Self.translation("Check in", language: language)
            let calendar = try Self.translation("Calendar", language: language)
            let seen = try await session(cli, environment.merging(["SCENARIO": "read", "WEEK_PREFIX": prefix, "CHECK_IN": checkIn,
                                                                   "PAGES": calendar]) { $1 },
                                         shots: Self.screenshots.map { $0 + "/" + language } ?? "")
            #expect(seen.check_in_button == true, "no button named \(checkIn) in \(language)")
            #expect(expected.hasPrefix("\(seen.period ?? "") \(seen.week ?? "")"), "\(language): \(expected) vs \(seen)")
            let x = try #require(seen.buttons_x)
            if language == "ar" {
                // Mirrored: the first button (Check in) is on the right.
                #expect((x["first"] ?? 0) > (x["last"] ?? 0), "\(x)")
            } else {
                #expect((x["first"] ?? 0) < (x["last"] ?? 0), "\(x)")
            }
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theDarkStyleFollowsTheSystem() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let light = try await session(cli, ["SCENARIO": "read"], shots: "")
        let dark = try await session(cli, ["SCENARIO": "read", "ADW_DEBUG_COLOR_SCHEME": "prefer-dark", "PAGES": "Calendar"],
                                     shots: Self.screenshots.map { $0 + "/dark" } ?? "")
        // The window's background under the cards, as drawn: light, then dark.
        let lightness = { (seen: Seen) in Self.brightness(seen.background ?? "") }
        #expect(lightness(light) > 200, "\(light.background ?? "")")
        #expect(lightness(dark) < 80, "\(dark.background ?? "")")
    }

    /// The agent stops: the window says so in its banner instead of failing, reads nothing that would
    /// start it again, and the banner's button starts it (D-Bus activation) and brings the figures back.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aStoppedAgentIsABannerAndItsButtonStartsItAgain() async throws {
        let cli = try prepared()
        defer { cli.cleanup() }
        let seen = try await session(cli, ["SCENARIO": "restart"], shots: "")
        #expect(seen.banner == "The DeskDays agent is not running, so nothing can be read or recorded.", "\(seen)")
        #expect(seen.restarted == true, "a new agent answers")
        #expect(seen.week_after_restart == "This week: 0 of 3 office days.")
    }

    /// Sources/DeskDaysWindowResources/resources.c is what `make ui` makes of the .ui files now.
    @Test(.enabled(if: toolExists("glib-compile-resources"), "glib-compile-resources not installed: apt-get install libglib2.0-dev-bin"))
    func theCompiledLayoutsAreCurrent() async throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-resources-\(UUID().uuidString).c")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let window = Self.root.appendingPathComponent("Sources/DeskDaysWindow").path
        let result = try await Program.run("/usr/bin/env", ["glib-compile-resources", "--sourcedir", window, "--generate-source",
                                                            "--c-name", "deskdays_window", "--manual-register", "--target", fresh.path,
                                                            window + "/deskdays.gresource.xml"])
        #expect(result.status == 0, "\(result.stderr)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/DeskDaysWindowResources/resources.c"), encoding: .utf8)
        #expect(try String(contentsOf: fresh, encoding: .utf8) == committed, "run `make ui` after editing Sources/DeskDaysWindow/ui")
    }

    /// The mean of an ImageMagick `txt:` pixel (`0,0: (64250,64250,64250)  #FAFA…`), on 0–255.
    static func brightness(_ pixel: String) -> Int {
        guard let open = pixel.firstIndex(of: "("), let close = pixel.firstIndex(of: ")") else { return -1 }
        let values = pixel[pixel.index(after: open)..<close].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count >= 3 else { return -1 }
        // 16 bits per channel when the depth is 16 (as Xvfb's root window is read).
        let scale = values.prefix(3).contains { $0 > 255 } ? 257 : 1
        return values.prefix(3).reduce(0, +) / 3 / scale
    }

    /// A message's translation in po/LANGUAGE.po.
    static func translation(_ message: String, language: String) throws -> String {
        let po = try String(contentsOf: root.appendingPathComponent("po/\(language).po"), encoding: .utf8)
        guard let range = po.range(of: "\nmsgid \"\(message)\"\nmsgstr \"") else { return message }
        return String(po[range.upperBound...].prefix { $0 != "\"" })
    }
}
