import Foundation
import Testing

/// The agent as a real process: a GPS receiver replayed into a
/// pseudo-terminal (socat), a geofence at the capture's position, and the
/// arrival ends up as one stored gps check-in; SIGTERM stops it cleanly.
@Suite(.serialized) struct AgentTests {
    static let capture: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/nmea/gpsd/telit-pls83-w.log")

    @Test(.enabled(if: toolExists("socat"), "socat not installed: apt-get install socat"))
    func gpsArrivalThroughTheAgentIsStoredOnce() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = cli.folder.appendingPathComponent("gps").path
        let feed = cli.folder.appendingPathComponent("feed").path
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        socat.arguments = ["socat", "pty,raw,echo=0,link=\(gps)", "pty,raw,echo=0,link=\(feed)"]
        try socat.run()
        // Children of Foundation's Process inherit blocked signals: SIGKILL always works.
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: feed) { usleep(50_000) }
        try #require(FileManager.default.fileExists(atPath: gps))
        // telit-pls83-w was captured at about 43.55317 N, 1.46031 E.
        try cli.writeConfig("""
        [gps]
        enabled = true
        device = "\(gps)"
        baud = 9600

        [[gps.geofences]]
        name = "toulouse"
        latitude = 43.55317
        longitude = 1.46031
        radius_m = 500
        dwell_s = 3
        """)
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        agent.arguments = ["agent", "--config", cli.config, "--database", cli.database]
        let log = cli.folder.appendingPathComponent("agent.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        agent.standardError = try FileHandle(forWritingTo: log)
        var environment = ProcessInfo.processInfo.environment
        environment["DESKDAYS_LOG"] = "info"
        agent.environment = environment
        try agent.run()
        defer { if agent.isRunning { kill(agent.processIdentifier, SIGKILL) } }
        // Write only once the agent has the port open: a pty drops what was written before.
        for _ in 0..<200 {
            if ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("opened") { break }
            usleep(50_000)
        }
        usleep(200_000)

        let writer = try #require(FileHandle(forWritingAtPath: feed))
        let lines = try String(contentsOf: Self.capture, encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
        // Twice through: the second pass is the same presence, not a new arrival.
        for _ in 0..<2 {
            for chunk in stride(from: 0, to: lines.count, by: 10) {
                let text = lines[chunk..<min(chunk + 10, lines.count)].joined(separator: "\r\n") + "\r\n"
                writer.write(Data(text.utf8))
                usleep(20_000)
            }
        }
        var sources: [String] = []
        for _ in 0..<100 {
            let today = try cli.run(["days", "--json", "--from", todayString(), "--to", todayString()])
            let list = try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            if sources.contains("gps") { break }
            usleep(100_000)
        }
        #expect(sources == ["gps"], "agent log: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let explain = try cli.run(["explain", todayString()])
        #expect(explain.stdout.contains("rule \"toulouse\""))
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "exactly one stored gps check-in")
        // Nothing positional reached the database.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.database))
            + ((try? Data(contentsOf: URL(fileURLWithPath: cli.database + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("43.55".utf8)) == nil && bytes.range(of: Data("4333.1".utf8)) == nil)

        agent.terminate()
        agent.waitUntilExit()
        #expect(agent.terminationStatus == 0)
    }

    @Test func agentWithNothingEnabledStopsOnSIGTERM() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        agent.arguments = ["agent", "--config", cli.config, "--database", cli.database]
        let err = Pipe()
        agent.standardError = err
        try agent.run()
        usleep(500_000)
        agent.terminate()
        agent.waitUntilExit()
        #expect(agent.terminationStatus == 0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("no adapter enabled"))
    }
}

/// Today's date in UTC (CLIRunner sets TZ=UTC for the binary).
func todayString() -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return formatter.string(from: Date())
}
