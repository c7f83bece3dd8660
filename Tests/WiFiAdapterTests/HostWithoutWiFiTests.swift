import Foundation
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
    func unavailableOnce() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-wifi-host-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.toml")
        try "[wifi]\nenabled = true\n\n[[wifi.networks]]\nname = \"hq\"\nssid = \"Office-5G\"\n".write(to: config, atomically: true, encoding: .utf8)
        let log = work.appendingPathComponent("agent.log")
        let trace = work.appendingPathComponent("socket.trace")
        FileManager.default.createFile(atPath: log.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.strace!)
        process.arguments = ["-f", "-e", "trace=socket", "-o", trace.path, Self.binary!, "agent",
                             "--config", config.path, "--database", work.appendingPathComponent("db.sqlite").path,
                             "--socket", work.appendingPathComponent("agent.sock").path]
        var environment = ProcessInfo.processInfo.environment
        environment["DESKDAYS_LOG"] = "info"
        environment["HOME"] = work.path
        process.environment = environment
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()

        func text() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        var waited = 0
        while !text().contains("Wi-Fi unavailable"), waited < 600 {
            usleep(100_000); waited += 1
        }
        // Long enough for the supervisor's first restart (1 s) had the adapter returned.
        sleep(3)
        let agent = childProcess(of: process.processIdentifier)
        #expect(agent != nil)
        if let agent { kill(agent, SIGTERM) }
        if !process.waitForExit(seconds: 30) {
            if let agent { kill(agent, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
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
    func enrollWithoutWiFi() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-wifi-enroll-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("config.toml")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary!)
        process.arguments = ["enroll", "wifi", "--pin", "--config", config.path]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = work.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitForExit()
        #expect(process.exitStatus == 1)
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
