import Foundation
import Spawn
import TestSupport
import Testing

/// The real agent on a machine without cfg80211 (this build host): the
/// Wi-Fi adapter says "unavailable" once, then waits without being
/// restarted, stops on SIGTERM, and opens only netlink (and the agent's
/// AF_UNIX control socket), never an internet socket.
@Suite struct HostWithoutWiFiTests {
    static let binary = ProcessInfo.processInfo.environment["DESKDAYS_BIN"]
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let hasCfg80211 = FileManager.default.fileExists(atPath: "/sys/module/cfg80211")

    @Test("no nl80211: unavailable once, no restarts, clean stop, only AF_NETLINK/AF_UNIX sockets",
          .enabled(if: binary != nil, "DESKDAYS_BIN is not set: run through `make test`"),
          .enabled(if: strace != nil, "strace not installed: apt-get install strace"),
          .enabled(if: !hasCfg80211, "this machine has cfg80211 loaded; the test needs one without Wi-Fi"))
    func unavailableOnce() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-wifi-host-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.toml")
        try "[wifi]\nenabled = true\n\n[[wifi.networks]]\nname = \"hq\"\nssid = \"Office-5G\"\n".write(to: config, atomically: true, encoding: .utf8)
        let log = work.appendingPathComponent("agent.log")
        let trace = work.appendingPathComponent("socket.trace")

        let strace = try await Child.start(
            Self.strace!,
            ["-f", "-e", "trace=socket", "-o", trace.path, Self.binary!, "agent",
             "--config", config.path, "--database", work.appendingPathComponent("db.sqlite").path,
             "--socket", work.appendingPathComponent("agent.sock").path],
            overrides: ["DESKDAYS_LOG": "info", "HOME": work.path], stderr: .file(log.path))

        func text() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // The adapter says "unavailable" once its thread only waits for nl80211
        // to appear (WiFiCheckInAdapter.open): from then on it cannot return by itself, so
        // a restart (logged as "adapter stopped" before the SIGTERM's "agent
        // stopped") would be a bug the log shows, with no time to wait out.
        #expect(await eventually("the agent to log \"Wi-Fi unavailable\"") { text().contains("Wi-Fi unavailable") }, "\(text())")
        let agent = childProcess(of: strace.pid)
        #expect(agent != nil)
        if let agent { kill(agent, SIGTERM) }
        if await strace.wait(seconds: 60) == nil {
            if let agent { kill(agent, SIGKILL) }
            strace.signal(SIGKILL)
            await strace.wait()
            Issue.record("the agent did not stop on SIGTERM")
        }
        let output = text()
        #expect(output.components(separatedBy: "Wi-Fi unavailable").count - 1 == 1, "\(output)")
        #expect(output.contains("no nl80211"), "\(output)")
        #expect(!output.contains("adapter stopped") && !output.contains("adapter failed"), "\(output)")
        #expect(output.contains("agent stopped"), "\(output)")

        let calls = try String(contentsOf: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
            .compactMap { line in line.range(of: "socket(").map { String(line[$0.lowerBound...]) } }
        #expect(calls.contains { $0.hasPrefix("socket(AF_NETLINK,") && $0.contains("NETLINK_GENERIC") }, "\(calls)")
        for call in calls {
            #expect(call.hasPrefix("socket(AF_NETLINK,") || call.hasPrefix("socket(AF_UNIX,"), "\(call)")
        }
    }

    @Test("no nl80211: enroll wifi says so in one line, exit 1, config untouched",
          .enabled(if: binary != nil, "DESKDAYS_BIN is not set: run through `make test`"),
          .enabled(if: !hasCfg80211, "this machine has cfg80211 loaded; the test needs one without Wi-Fi"))
    func enrollWithoutWiFi() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-wifi-enroll-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.toml")
        let result = try await Program.run(Self.binary!, ["enroll", "wifi", "--pin", "--config", config.path],
                                           overrides: ["HOME": work.path], stdout: .discard)
        let text = result.stderr
        #expect(result.status == 1 && !result.terminatedBySignal)
        #expect(text.split(whereSeparator: \.isNewline).count == 1, "\(text)")
        #expect(text.contains("cannot read Wi-Fi") && text.contains("no nl80211"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: config.path))
    }

    /// The first child of a process (strace's tracee), from /proc.
    func childProcess(of pid: Int32) -> Int32? {
        let path = "/proc/\(pid)/task/\(pid)/children"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }
}
