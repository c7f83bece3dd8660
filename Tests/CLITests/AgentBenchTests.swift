import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent on the bench, as a real process: a virtual NFC tap
/// (private pcscd + vpcd + a virtual Type 2 tag) and a replayed GPS entry
/// (socat pty) make one office day with both sources, pushed to
/// `status --follow`, suppressing that day's reminder, with
/// no internet socket under strace; and each device vanishing and returning
/// while the agent keeps serving the rest.
///
/// The fallback on a day without any check-in is
/// `AgentTimerTests.fallbackIsWrittenOnAWorkdayWithoutARecord`.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: AgentBench.available, AgentBench.skipReason))
struct AgentBenchTests {
    /// The tag on the desk, matched by its UID.
    static let deskUID = "04A2246A2F6E80"

    @Test func tapAndGPSEntryMakeOneOfficeDayPushedAtOnceWithoutInternetSockets() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: gps, reminder: "10:30"))
        let trace = cli.folder.appendingPathComponent("strace.out").path
        // 20 s before the reminder: the tap and the GPS entry come first, then 10:30 passes.
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "10:30", minusSeconds: 20),
        ]) { $1 }, launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket", "-o", trace])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(await agent.waitForLog("GPS receiver \(gps.device) opened"), "\(agent.logText)")

        let follow = try await StatusFollower(cli, socket: agent.socket)
        let before = try #require(await follow.waitForLine { _ in true }, "status --follow printed its first line")
        let officeBefore = try #require(before["office"] as? Int)

        let card = try await pcscd.card(uid: Self.deskUID, in: cli.folder)
        await card.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        // The change reaches status --follow (how soon: bench/core.sh, "check-in -> status --follow line").
        _ = try #require(await follow.waitForLine { ($0["office"] as? Int ?? 0) > officeBefore },
                         "status --follow printed the new office day")
        await card.remove()

        try gps.replay()
        #expect(await agent.waitForLog("gps check-in stored for \(day.date)"), "\(agent.logText)")
        #expect(await agent.waitForLog("reminder suppressed: \(day.date) already has a record", seconds: 30), "\(agent.logText)")
        #expect(!agent.logText.contains("reminder for \(day.date)"))

        let days = try await cli.run(["days", "--json", "--from", day.date, "--to", day.date])
        let list = try #require(JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["status"] as? String == "office", "\(days.stdout)")
        #expect(Set(list.first?["sources"] as? [String] ?? []) == ["nfc", "gps"], "\(days.stdout)")
        let explain = try await cli.run(["explain", day.date]).stdout
        #expect(explain.components(separatedBy: "check-in  nfc").count == 2, "\(explain)")
        #expect(explain.components(separatedBy: "check-in  gps").count == 2, "\(explain)")
        #expect(explain.contains("rule \"desk\"") && explain.contains("rule \"toulouse\""), "\(explain)")

        _ = await agent.stopTraced()
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.contains("socket(") }
        #expect(calls.contains { $0.contains("AF_UNIX") }, "the trace saw the agent's own sockets")
        let internet = calls.filter { $0.contains("AF_INET") || $0.contains("PF_INET") }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    @Test func pcscdVanishingAndReturningLeavesTheRestServing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: gps, reminder: "off"))
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "12:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(await agent.waitForLog("GPS receiver \(gps.device) opened"), "\(agent.logText)")

        try await pcscd.kill()
        #expect(await agent.waitForLog("PC/SC service unavailable"), "\(agent.logText)")
        // While NFC is gone: the control socket answers and GPS still stores.
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-01-05","status":"office"}"#)?["ok"] as? Bool == true)
        try gps.replay()
        #expect(await agent.waitForLog("gps check-in stored for \(day.date)"), "\(agent.logText)")

        try await pcscd.start()
        #expect(await agent.waitForLog("PC/SC service is back", seconds: 60), "\(agent.logText)")
        let card = try await pcscd.card(uid: Self.deskUID, in: cli.folder)
        await card.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await card.remove()
        #expect(agent.logText.components(separatedBy: "PC/SC service unavailable").count == 2, "the outage is logged once")
        #expect(await agent.stop() == 0)
    }

    @Test func gpsPtyVanishingAndReturningLeavesTheRestServing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        var gps: SimulatedGPS? = try await SimulatedGPS(in: cli.folder)
        let device = try #require(gps?.device)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: try #require(gps), reminder: "off"))
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "12:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(await agent.waitForLog("GPS receiver \(device) opened"), "\(agent.logText)")

        await gps?.stop()  // socat killed: the pty pair is gone
        gps = nil
        #expect(await agent.waitForLog("GPS receiver \(device) lost"), "\(agent.logText)")
        // While GPS is gone: the control socket answers and NFC still stores.
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-01-05","status":"office"}"#)?["ok"] as? Bool == true)
        let card = try await pcscd.card(uid: Self.deskUID, in: cli.folder)
        await card.insert()
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await card.remove()

        // A new pty pair at the same path, as a receiver replugged behind its udev symlink.
        let returned = try await SimulatedGPS(in: cli.folder)
        #expect(await agent.waitForLog("GPS receiver \(device) is back", seconds: 60), "\(agent.logText)")
        try returned.replay()
        #expect(await agent.waitForLog("gps check-in stored for \(day.date)"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }
}

/// What the suite needs and how the agent is configured for it.
enum AgentBench {
    static let python = "/usr/bin/python3"
    static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

    static var available: Bool {
        ["pcscd", "socat", "strace", "unshare"].allSatisfy { toolExists($0) || FileManager.default.isExecutableFile(atPath: "/usr/sbin/\($0)") }
            && FileManager.default.fileExists(atPath: vpcdDriver) && FileManager.default.isExecutableFile(atPath: python)
    }
    static let skipReason: Comment =
        "pcscd, vsmartcard-vpcd, socat, strace or /usr/bin/python3 missing: apt-get install pcscd vsmartcard-vpcd socat strace python3"

    /// NFC by UID (PC/SC), the GPS fence of `SimulatedGPS`, every day a
    /// workday (the bench may run on a weekend), the fallback off (its own
    /// test is in AgentTimerTests).
    static func configuration(day: BenchDay, gps: SimulatedGPS, reminder: String) -> String {
        """
        [policy]
        timezone = "\(day.timezone)"
        workdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

        [checkin]
        reminder_time = "\(reminder)"
        fallback_time = "off"

        [nfc]
        enabled = true
        backend = "pcsc"

        [[nfc.tags]]
        name = "desk"
        uid = "\(AgentBenchTests.deskUID)"

        \(gps.configuration)
        """
    }

    /// The private pcscd's socket for the agent's libpcsclite; no session bus (reminders are only logged).
    static func environment(_ pcscd: PrivatePCSCD) -> [String: String] {
        ["PCSCLITE_CSOCK_NAME": pcscd.socketPath, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent"]
    }
}

/// The bench's "today": a fixed date in a fixed-offset zone (`Etc/GMT±N`)
/// where the given instant is about noon; every agent of the bench gets its
/// "now" there (`DESKDAYS_NOW`), and adapters stamp check-ins with the
/// agent's clock, so nothing depends on when the test runs.
struct BenchDay {
    let timezone: String
    let date: String
    private let zone: TimeZone

    init(now: Date = Date(timeIntervalSince1970: 1_773_129_600)) {  // 2026-03-10T08:00:00Z
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let east = 12 - utc.component(.hour, from: now)  // hours east of UTC, -11...12
        // POSIX sign convention: Etc/GMT-3 is three hours east.
        timezone = east == 0 ? "UTC" : "Etc/GMT\(east > 0 ? "-" : "+")\(abs(east))"
        zone = TimeZone(secondsFromGMT: east * 3600)!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        date = formatter.string(from: now)
    }

    /// `DESKDAYS_NOW` for `seconds` before `time` ("HH:MM", local) on this date.
    func instant(at time: String, minusSeconds seconds: Int) -> String {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = zone
        parser.dateFormat = "yyyy-MM-dd HH:mm"
        let local = parser.date(from: "\(date) \(time)")!.addingTimeInterval(-Double(seconds))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: local)
    }
}

/// A private `pcscd -f` with vpcd (Tests/Harness/nfc/pcscd_ctl.py: own mount
/// and network namespace, stopped by PID). The agent reaches it through
/// `PCSCLITE_CSOCK_NAME`; a system pcscd is never touched.
final class PrivatePCSCD {
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Harness/nfc").path

    let directory: String
    private(set) var pid: Int32 = 0
    var socketPath: String { directory + "/run/pcscd.comm" }

    /// vpcd's friendly name (pcscd adds " 00 00"): "ACS ACR122U PICC Interface" makes it an ACR122U to DeskDays.
    let readerName: String

    init(in folder: URL, readerName: String = "Virtual PCD") async throws {
        directory = folder.appendingPathComponent("pcscd").path
        self.readerName = readerName
        try await start()
    }

    /// Starts (or restarts) pcscd in a new namespace; returns once its socket exists.
    func start() async throws {
        let started = try await runTool([AgentBench.python, Self.harness + "/pcscd_ctl.py", "start", directory, readerName])
        guard started.status == 0, let pid = Int32(started.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("pcscd did not start: \(started.output) (see \(directory)/pcscd.log)")
        }
        self.pid = pid
    }

    /// SIGKILL, as a crash would.
    func kill() async throws {
        let killed = try await runTool([AgentBench.python, Self.harness + "/pcscd_ctl.py", "kill", directory])
        guard killed.status == 0 else { throw HarnessError("pcscd_ctl.py kill exited \(killed.status)") }
    }

    /// SIGKILL by PID, without waiting: what a `defer` can do (it cannot await `pcscd_ctl.py stop`).
    func stop() {
        if pid > 0 { Glibc.kill(pid, SIGKILL) }
    }

    /// Waits (through libpcsclite, `pcsc_wait.py`) until pcscd reports the
    /// reader `empty` or `present`.
    func waitForSlot(_ reader: String, _ state: String) async -> Bool {
        let waited = try? await runTool(["PCSCLITE_CSOCK_NAME=\(socketPath)", AgentBench.python, Self.harness + "/pcsc_wait.py", reader, state, "20"])
        return waited?.status == 0
    }

    /// A virtual Type 2 tag on reader `Virtual PCD 00 00` of the running pcscd
    /// (its network namespace: a restarted pcscd needs a new card).
    func card(uid: String, port: Int = BenchCard.firstSlot, in folder: URL) async throws -> BenchCard {
        try await BenchCard(uid: uid, netns: "/proc/\(pid)/ns/net", port: port, in: folder)
    }
}

/// One virtual tag (`vcard.py`): insert = connect to vpcd, remove = close.
final class BenchCard {
    private let card: Conversation

    /// vpcd's two slots: "Virtual PCD 00 00" and "Virtual PCD 00 01".
    static let firstSlot = 0x8C7B
    static let secondSlot = 0x8C7C

    init(uid: String, netns: String, port: Int = BenchCard.firstSlot, in folder: URL) async throws {
        card = try await Conversation(AgentBench.python, [PrivatePCSCD.harness + "/vcard.py", "--netns", netns, "--port", String(port)],
                                      in: folder)
        await send("tag \(uid)")
    }

    /// Sends a command and waits for its one-line answer (vcard.py answers once done).
    @discardableResult
    private func send(_ line: String) async -> String {
        card.send(line)
        return await card.nextLine() ?? ""
    }

    func insert() async { await send("insert") }
    func remove() async { await send("remove") }
    /// The UID the next insert shows (a random-UID badge shows a new one each time).
    func show(uid: String) async { await send("tag \(uid)") }
    /// Waits until a reader client has asked for the UID since the last insert.
    func waitRead(seconds: Double = 20) async -> Bool { await send("waitread \(seconds)").hasPrefix("read") }
    /// Waits until `count` APDUs other than the tag's reads came (the
    /// reader's own commands): them, in order, as hex (fewer after `seconds`).
    func others(_ count: Int, seconds: Double = 20) async -> [String] {
        Array(await send("others \(count) \(seconds)").split(separator: " ").dropFirst().map(String.init))
    }
    /// How many times a reader client asked for the UID.
    var reads: Int {
        get async { Int(await send("reads").split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1 }
    }
}

/// `deskdays status --follow --format json` against the agent, one JSON object a line.
final class StatusFollower {
    private let follower: Conversation

    init(_ cli: CLIRunner, socket: String) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = cli.folder.path
        environment["TZ"] = "UTC"
        environment["DESKDAYS_NOW"] = nil
        environment["DESKDAYS_TODAY"] = nil
        follower = try await Conversation(CLIRunner.binary, ["status", "--follow", "--format", "json", "--socket", socket,
                                                            "--config", cli.config, "--database", cli.database],
                                          environment: environment, in: cli.folder, input: false)
    }

    /// The first line so far that satisfies `matches` (nil after `seconds`: a failure guard).
    func waitForLine(seconds: Double = 60, _ matches: ([String: Any]) -> Bool) async -> [String: Any]? {
        var found: [String: Any]?
        await eventually(seconds: seconds, "a matching line from status --follow in \(follower.output)") {
            found = follower.lines.lazy.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
                .first(where: matches)
            return found != nil
        }
        return found
    }

    /// SIGKILL, without waiting (Spawn reaps it): what a `defer` can do.
    func stop() { follower.child.signal(SIGKILL) }
}
