import DeskDaysConfig
import DeskDaysCore
import Foundation
import Testing

/// The full sample of docs/cli.md must load and mean what it says.
@Test func sampleConfigLoads() throws {
    let text = """
    [policy]
    timezone = "Europe/London"
    workdays = ["mon", "tue", "wed", "thu", "fri"]
    week_start = "mon"
    period = "quarter"
    fiscal_year_start_month = 10
    rolling_weeks = 12
    count_non_workdays = false

    [policy.target]
    kind = "days_per_week"
    value = 2.5
    reduce = "pro-rata"

    [policy.counts]
    travel = "remote"
    sick = "excused"

    [[holidays]]
    date = "2026-12-25"
    name = "Christmas Day"

    [[holidays]]
    date = 2026-12-28

    [checkin]
    reminder_time = "10:30"
    fallback_time = "20:00"
    fallback_status = "none"

    [nfc]
    enabled = true
    backend = "pcsc"
    reader = "ACR1252"

    [[nfc.tags]]
    name = "desk"
    uid = "04:a2:24:6a:2f:6e:80"

    [[nfc.tags]]
    name = "badge"
    ndef = "deskdays:office:hq"

    [qr]
    enabled = true
    payloads = ["deskdays:office:hq"]

    [wifi]
    enabled = true

    [[wifi.networks]]
    ssid = "Corp-WiFi"
    bssids = ["AA:BB:CC:DD:EE:FF"]
    min_signal_dbm = -75

    [gps]
    enabled = true
    source = "modemmanager"
    device = "/dev/gps0"
    baud = 4800

    [[gps.geofences]]
    name = "hq"
    latitude = 51.5072
    longitude = -0.1276
    radius_m = 150
    dwell_s = 120
    """
    let (config, problems) = ConfigLoader.parse(text, file: "c.toml")
    #expect(problems.isEmpty, "\(problems)")
    #expect(config.policy.timeZone.identifier == "Europe/London")
    #expect(config.policy.fiscalYearStartMonth == 10)
    #expect(config.policy.target == Target(kind: .daysPerWeek, hundredths: 250, reduce: .proRata))
    #expect(config.policy.treatment(of: .travel) == .remote)
    #expect(config.policy.holidays[LocalDate("2026-12-25")!] == "Christmas Day")
    #expect(config.policy.holidays[LocalDate("2026-12-28")!] != nil)
    #expect(config.checkin.fallbackStatus == nil)
    #expect(config.nfc.tags == [.init(name: "desk", uid: "04A2246A2F6E80"), .init(name: "badge", ndef: "deskdays:office:hq")])
    #expect(config.nfc.backend == .pcsc)
    #expect(config.nfc.reader == "ACR1252")
    #expect(config.wifi.networks.first?.bssids == ["aa:bb:cc:dd:ee:ff"])
    #expect(config.wifi.networks.first?.name == "wifi-1")
    #expect(config.gps.baud == 4800)
    #expect(config.gps.source == .modemmanager)
    #expect(config.gps.geofences.first?.name == "hq")
    #expect(Configuration().gps.source == .auto, "auto by default")
}

@Test func anUnknownGPSSourceNamesTheChoices() {
    let (_, problems) = ConfigLoader.parse("[gps]\nsource = \"tcp\"\n", file: "f")
    #expect(problems.count == 1)
    #expect(problems.first?.line == 2)
    #expect(problems.first?.message.contains("\"auto\", \"serial\", \"gpsd\", \"modemmanager\"") == true, "\(problems)")
}

/// `config check` reports every problem at once, each on the line it is on.
@Test func everyProblemIsReportedWithItsLine() {
    let text = """
    [policy]
    timezone = "Mars/Olympus"
    fiscal_year_start_month = 13
    perod = "month"

    [policy.target]
    kind = "percent"
    value = 140

    [[holidays]]
    date = "2026-02-30"

    [[nfc.tags]]
    name = "desk"
    uid = "zz"

    [gps]
    baud = 1234
    """
    let (_, problems) = ConfigLoader.parse(text, file: "c.toml")
    let lines = problems.map(\.line)
    #expect(lines == [2, 3, 4, 8, 11, 15, 18], "\(problems)")
    #expect(problems.allSatisfy { $0.description.hasPrefix("c.toml:") })
    #expect(problems[2].message.contains("unknown key \"perod\""))
    #expect(problems[3].message.contains("over 100"))
}

@Test(arguments: [
    ("value = 60.123", "two decimals"),
    ("kind = \"weekly\"", "is not one of"),
    ("value = \"60\"", "must be a number"),
])
func badTargetValues(line: String, expected: String) {
    let (_, problems) = ConfigLoader.parse("[policy.target]\n\(line)\n", file: "f")
    #expect(problems.count == 1)
    #expect(problems.first?.line == 2)
    #expect(problems.first?.message.contains(expected) == true, "\(problems)")
}

/// A target far beyond any period (a typo, or a hostile file) is one
/// sentence, for every kind: it used to trap converting 1e308 to hundredths.
@Test(arguments: Target.Kind.allCases)
func hugeTargetValuesAreOneProblem(kind: Target.Kind) {
    for value in ["1e308", "9223372036854775807", "3641", "1.7976931348623157e308"] {
        let extra = kind == .compliantWeeks ? "weeks = 4\n" : kind == .bestWeeks ? "best = 8\nwindow = 12\n" : ""
        let (_, problems) = ConfigLoader.parse("[policy.target]\nkind = \"\(kind.rawValue)\"\nvalue = \(value)\n\(extra)", file: "f")
        #expect(problems.count == 1, "\(kind) \(value): \(problems)")
        #expect(problems.first?.line == 3, "\(kind) \(value): \(problems)")
    }
    // The most any kind may ask, every day of 520 rolling weeks, is read.
    if kind == .daysPerPeriod || kind == .bestWeeks {
        let extra = kind == .bestWeeks ? "best = 520\nwindow = 520\n" : ""
        let (config, problems) = ConfigLoader.parse("[policy.target]\nkind = \"\(kind.rawValue)\"\nvalue = 3640\n\(extra)", file: "f")
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.policy.target.hundredths == 364_000)
    }
}

@Test func invalidTOMLIsOneLocatedProblem() {
    let (_, problems) = ConfigLoader.parse("[policy\nperiod = 'month'\n", file: "f")
    #expect(problems.count == 1)
    #expect(problems.first?.message.hasPrefix("not valid TOML") == true)
}

@Test func missingFileMeansDefaults() throws {
    let config = try ConfigLoader.load(path: "/nonexistent/deskdays/config.toml")
    #expect(config == Configuration())
    #expect(config.policy.target.hundredths == 6000)
}

@Test func holidaysFromAnICSFileRelativeToTheConfig() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dd-ics-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
    BEGIN:VCALENDAR\r
    BEGIN:VEVENT\r
    DTSTART;VALUE=DATE:20261225\r
    DTEND;VALUE=DATE:20261227\r
    SUMMARY:Christmas\r
    END:VEVENT\r
    END:VCALENDAR\r
    """.write(to: folder.appendingPathComponent("h.ics"), atomically: true, encoding: .utf8)
    try "[policy]\nholidays_ics = \"h.ics\"\n".write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    let config = try ConfigLoader.load(path: folder.appendingPathComponent("config.toml").path)
    #expect(config.policy.holidays.keys.sorted() == [LocalDate("2026-12-25")!, LocalDate("2026-12-26")!])
}

/// Outlook's holiday export (Windows zone, yearly rules, an UTC UNTIL) as `holidays_ics`.
@Test func holidaysFromAnOutlookCalendar() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calendar/holidays/outlook-feiertage.ics")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dd-ics-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "[policy]\nholidays_ics = \"\(fixture.path)\"\n".write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    let holidays = try ConfigLoader.load(path: folder.appendingPathComponent("config.toml").path).policy.holidays
    #expect(holidays[LocalDate("2026-10-03")!] == "Tag der Deutschen Einheit")
    #expect(holidays[LocalDate("2099-10-03")!] == "Tag der Deutschen Einheit")
    #expect(holidays[LocalDate("2040-12-26")!] == "Weihnachten")
    #expect(holidays[LocalDate("2028-01-01")!] == "Neujahr" && holidays[LocalDate("2029-01-01")!] == nil)
    #expect(holidays[LocalDate("2027-05-01")!] == "Tag der Arbeit" && holidays[LocalDate("2028-05-01")!] == nil)
    // The timed event is no holiday.
    #expect(holidays[LocalDate("2026-11-10")!] == nil)
}

@Test func appendBlockKeepsCommentsAndLoads() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dd-edit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("deskdays/config.toml").path
    try ConfigEditor.appendBlock("[policy]\n# my comment\nperiod = \"month\"", to: path)
    try ConfigEditor.appendBlock("[[nfc.tags]]\nname = \(ConfigEditor.quoted("desk-2"))\nuid = \"0102\"", to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("# my comment"))
    let config = try ConfigLoader.load(path: path)
    #expect(config.policy.period == .month)
    #expect(config.nfc.tags.first?.name == "desk-2")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
}

/// Appending never loses what is there: a file that is not UTF-8 text is
/// refused and left byte for byte; through a symbolic link the link stays
/// and the target keeps its mode.
@Test func appendBlockLeavesUnreadableFilesAloneAndKeepsLinksAndModes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dd-edit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let binary = folder.appendingPathComponent("latin1.toml").path
    let latin1 = Data("[policy]\n# caf".utf8) + Data([0xE9, 0x0A]) // "café" in Latin-1
    try latin1.write(to: URL(fileURLWithPath: binary))
    #expect(throws: (any Error).self) { try ConfigEditor.appendBlock("[gps]\nenabled = true", to: binary) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: binary)) == latin1)

    let target = folder.appendingPathComponent("dotfiles/config.toml").path
    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
    let link = folder.appendingPathComponent("config.toml").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    try ConfigEditor.appendBlock("[gps]\nenabled = true", to: link)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "# mine\n\n[gps]\nenabled = true\n")
    #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o640)
}


/// `[sync]` (docs/cli.md "Sync"): off when absent; `~` is the home folder,
/// a relative folder is beside the configuration file; the device name
/// defaults to the host name; a missing folder or a name that is not one
/// line is a located problem.
@Test func syncSection() {
    #expect(ConfigLoader.parse("", file: "f").0.sync == nil)
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    let (config, problems) = ConfigLoader.parse("[sync]\nfolder = \"~/Sync/deskdays\"\ndevice_name = \"laptop\"\n", file: "f")
    #expect(problems.isEmpty, "\(problems)")
    #expect(config.sync == SyncSettings(folder: home + "/Sync/deskdays", deviceName: "laptop"))
    let shown = config.tomlText()
    #expect(shown.contains("[sync]") && shown.contains("laptop") && shown.contains(home + "/Sync/deskdays"), "\(shown)")
    let relative = ConfigLoader.parse("[sync]\nfolder = \"shared\"\n", file: "f", baseDirectory: "/etc/xdg/deskdays").0.sync
    #expect(relative?.folder == "/etc/xdg/deskdays/shared")
    #expect(relative?.deviceName == SyncSettings.hostName() && !(relative?.deviceName.isEmpty ?? true))
    let (_, bad) = ConfigLoader.parse("[sync]\ndevice_name = \"a\\nb\"\n", file: "f")
    #expect(bad.map(\.line) == [1, 2], "\(bad)")
    #expect(bad.first?.message.contains("needs folder") == true && bad.last?.message.contains("one line") == true, "\(bad)")
}
