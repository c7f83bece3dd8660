import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 7 on the bench, with the agent as a real process: a virtual NFC tap
/// (private pcscd + vpcd + a virtual Type 2 tag) and a replayed GPS entry
/// (socat pty) make one office day with both sources, pushed to
/// `status --follow` within a second, suppressing that day's reminder, with
/// no internet socket under strace; and each device vanishing and returning
/// while the agent keeps serving the rest.
///
/// The fallback on a day without any check-in is
/// `AgentTimerTests.fallbackIsWrittenOnAWorkdayWithoutARecord`.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: AgentBench.available, AgentBench.skipReason))
struct AgentBenchTests {
    /// The tag on the desk, matched by its UID.
    static let deskUID = "04A2246A2F6E80"

    @Test func tapAndGPSEntryMakeOneOfficeDayPushedAtOnceWithoutInternetSockets() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let gps = try SimulatedGPS(in: cli.folder)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: gps, reminder: "10:30"))
        let trace = cli.folder.appendingPathComponent("strace.out").path
        // 20 s before the reminder: the tap and the GPS entry come first, then 10:30 passes.
        let agent = try AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "10:30", minusSeconds: 20),
        ]) { $1 }, launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket", "-o", trace])
        defer { agent.kill9() }
        #expect(agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(agent.waitForLog("GPS receiver \(gps.device) opened"), "\(agent.logText)")

        let follow = try StatusFollower(cli, socket: agent.socket)
        defer { follow.stop() }
        let before = try #require(follow.waitForLine { _ in true }, "status --follow printed its first line")
        let officeBefore = try #require(before.json["office"] as? Int)

        let card = try pcscd.card(uid: Self.deskUID)
        let inserted = Date()
        card.insert()
        let stored = try #require(agent.firstSeen("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        let pushed = try #require(follow.waitForLine { ($0.json["office"] as? Int ?? 0) > officeBefore },
                                  "status --follow printed the new office day")
        let delay = pushed.seen.timeIntervalSince(stored)
        print("tap → stored \(ms(stored.timeIntervalSince(inserted))) (pcscd polls vpcd every ~400 ms); stored → status --follow line \(ms(delay))")
        // The issue's one timing promise: the change is pushed within a second of being stored.
        #expect(delay <= 1.0, "status --follow printed the change \(ms(delay)) after the check-in was stored; the issue asks for within a second")
        usleep(1_200_000)
        card.remove()

        usleep(200_000)
        try gps.replay()
        #expect(agent.firstSeen("gps check-in stored for \(day.date)") != nil, "\(agent.logText)")
        #expect(agent.waitForLog("reminder suppressed: \(day.date) already has a record", seconds: 30), "\(agent.logText)")
        #expect(!agent.logText.contains("reminder for \(day.date)"))

        let days = try cli.run(["days", "--json", "--from", day.date, "--to", day.date])
        let list = try #require(JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["status"] as? String == "office", "\(days.stdout)")
        #expect(Set(list.first?["sources"] as? [String] ?? []) == ["nfc", "gps"], "\(days.stdout)")
        let explain = try cli.run(["explain", day.date]).stdout
        #expect(explain.components(separatedBy: "check-in  nfc").count == 2, "\(explain)")
        #expect(explain.components(separatedBy: "check-in  gps").count == 2, "\(explain)")
        #expect(explain.contains("rule \"desk\"") && explain.contains("rule \"toulouse\""), "\(explain)")

        AgentBench.stopTraced(agent)
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.contains("socket(") }
        #expect(calls.contains { $0.contains("AF_UNIX") }, "the trace saw the agent's own sockets")
        let internet = calls.filter { $0.contains("AF_INET") || $0.contains("PF_INET") }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    @Test func pcscdVanishingAndReturningLeavesTheRestServing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let gps = try SimulatedGPS(in: cli.folder)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: gps, reminder: "off"))
        let agent = try AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "12:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(agent.waitForLog("GPS receiver \(gps.device) opened"), "\(agent.logText)")

        try pcscd.kill()
        #expect(agent.waitForLog("PC/SC service unavailable"), "\(agent.logText)")
        // While NFC is gone: the control socket answers and GPS still stores.
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-01-05","status":"office"}"#)?["ok"] as? Bool == true)
        try gps.replay()
        #expect(agent.firstSeen("gps check-in stored for \(day.date)") != nil, "\(agent.logText)")

        try pcscd.start()
        #expect(agent.waitForLog("PC/SC service is back", seconds: 60), "\(agent.logText)")
        let card = try pcscd.card(uid: Self.deskUID)
        card.insert()
        #expect(agent.firstSeen("nfc check-in stored for \(day.date)") != nil, "\(agent.logText)")
        card.remove()
        #expect(agent.logText.components(separatedBy: "PC/SC service unavailable").count == 2, "the outage is logged once")
        #expect(agent.stop() == 0)
    }

    @Test func gpsPtyVanishingAndReturningLeavesTheRestServing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        var gps: SimulatedGPS? = try SimulatedGPS(in: cli.folder)
        let device = try #require(gps?.device)
        try cli.writeConfig(AgentBench.configuration(day: day, gps: try #require(gps), reminder: "off"))
        let agent = try AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "12:00", minusSeconds: 0),
        ]) { $1 })
        defer { agent.kill9() }
        #expect(agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        #expect(agent.waitForLog("GPS receiver \(device) opened"), "\(agent.logText)")

        gps = nil  // socat killed: the pty pair is gone
        #expect(agent.waitForLog("GPS receiver \(device) lost"), "\(agent.logText)")
        // While GPS is gone: the control socket answers and NFC still stores.
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-01-05","status":"office"}"#)?["ok"] as? Bool == true)
        let card = try pcscd.card(uid: Self.deskUID)
        card.insert()
        #expect(agent.firstSeen("nfc check-in stored for \(day.date)") != nil, "\(agent.logText)")
        card.remove()

        // A new pty pair at the same path, as a receiver replugged behind its udev symlink.
        let returned = try SimulatedGPS(in: cli.folder)
        #expect(agent.waitForLog("GPS receiver \(device) is back", seconds: 60), "\(agent.logText)")
        usleep(200_000)
        try returned.replay()
        #expect(agent.firstSeen("gps check-in stored for \(day.date)") != nil, "\(agent.logText)")
        #expect(agent.stop() == 0)
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

    /// SIGTERM to the agent itself (strace's child), so strace exits after it.
    static func stopTraced(_ agent: AgentProcess) {
        let pid = agent.process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        agent.process.waitForExit()
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

    init(in folder: URL) throws {
        directory = folder.appendingPathComponent("pcscd").path
        try start()
    }

    /// Starts (or restarts) pcscd in a new namespace; returns once its socket exists.
    func start() throws {
        let started = try runTool([AgentBench.python, Self.harness + "/pcscd_ctl.py", "start", directory])
        guard started.status == 0, let pid = Int32(started.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("pcscd did not start: \(started.output) (see \(directory)/pcscd.log)")
        }
        self.pid = pid
    }

    /// SIGKILL, as a crash would.
    func kill() throws {
        let killed = try runTool([AgentBench.python, Self.harness + "/pcscd_ctl.py", "kill", directory])
        guard killed.status == 0 else { throw HarnessError("pcscd_ctl.py kill exited \(killed.status)") }
    }

    func stop() {
        _ = try? runTool([AgentBench.python, Self.harness + "/pcscd_ctl.py", "stop", directory])
    }

    /// Waits (through libpcsclite, `pcsc_wait.py`) until pcscd reports the
    /// reader `empty` or `present`.
    func waitForSlot(_ reader: String, _ state: String) -> Bool {
        let waited = try? runTool(["PCSCLITE_CSOCK_NAME=\(socketPath)", AgentBench.python, Self.harness + "/pcsc_wait.py", reader, state, "20"])
        return waited?.status == 0
    }

    /// A virtual Type 2 tag on reader `Virtual PCD 00 00` of the running pcscd
    /// (its network namespace: a restarted pcscd needs a new card).
    func card(uid: String, port: Int = BenchCard.firstSlot) throws -> BenchCard {
        try BenchCard(uid: uid, netns: "/proc/\(pid)/ns/net", port: port)
    }
}

/// One virtual tag (`vcard.py`): insert = connect to vpcd, remove = close.
final class BenchCard {
    private let process = Process()
    private let input = Pipe(), output = Pipe()

    /// vpcd's two slots: "Virtual PCD 00 00" and "Virtual PCD 00 01".
    static let firstSlot = 0x8C7B
    static let secondSlot = 0x8C7C

    init(uid: String, netns: String, port: Int = BenchCard.firstSlot) throws {
        process.executableURL = URL(fileURLWithPath: AgentBench.python)
        process.arguments = [PrivatePCSCD.harness + "/vcard.py", "--netns", netns, "--port", String(port)]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        send("tag \(uid)")
    }

    /// Sends a command and waits for its one-line answer (vcard.py answers once done).
    @discardableResult
    private func send(_ line: String) -> String {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        var reply = Data()
        while !reply.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            reply.append(chunk)
        }
        return String(decoding: reply, as: UTF8.self)
    }

    func insert() { send("insert") }
    func remove() { send("remove") }
    /// The UID the next insert shows (a random-UID badge shows a new one each time).
    func show(uid: String) { send("tag \(uid)") }
    /// Waits until a reader client has asked for the UID since the last insert.
    func waitRead(seconds: Double = 20) -> Bool { send("waitread \(seconds)").hasPrefix("read") }
    /// How many times a reader client asked for the UID.
    var reads: Int { Int(send("reads").split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1 }

    /// SIGKILL: children of Foundation's Process inherit blocked signals.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }
}

/// `deskdays status --follow --format json` against the agent, each line
/// kept with the moment it was read.
final class StatusFollower: @unchecked Sendable {
    struct Line {
        var seen: Date
        var json: [String: Any]
    }

    private let process = Process()
    private let lock = NSLock()
    private var lines: [Line] = []

    init(_ cli: CLIRunner, socket: String) throws {
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = ["status", "--follow", "--format", "json", "--socket", socket,
                             "--config", cli.config, "--database", cli.database]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = cli.folder.path
        environment["TZ"] = "UTC"
        environment["DESKDAYS_NOW"] = nil
        environment["DESKDAYS_TODAY"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        let handle = out.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let seen = Date()
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let text = Data(pending[pending.startIndex..<newline])
                    pending = Data(pending[pending.index(after: newline)...])
                    let json = (try? JSONSerialization.jsonObject(with: text)) as? [String: Any] ?? [:]
                    lock.withLock { lines.append(Line(seen: seen, json: json)) }
                }
            }
        }
    }

    /// The first line so far that satisfies `matches` (nil after `seconds`: a failure guard).
    func waitForLine(seconds: Double = 60, _ matches: (Line) -> Bool) -> Line? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lock.withLock({ lines.first(where: matches) }) { return line }
            usleep(5_000)
        }
        return nil
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }
}

extension AgentProcess {
    /// When `text` was first seen in the log, watched every 5 ms (nil after `seconds`: a failure guard).
    func firstSeen(_ text: String, seconds: Double = 60) -> Date? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if logText.contains(text) { return Date() }
            usleep(5_000)
        }
        return nil
    }
}

/// Milliseconds, for messages.
private func ms(_ seconds: TimeInterval) -> String { "\(Int((seconds * 1000).rounded())) ms" }
