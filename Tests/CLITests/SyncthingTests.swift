import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sync end to end with real Syncthing (Debian's `syncthing`): two
/// instances on 127.0.0.1 with their own keys, discovery, relays, NAT and
/// the GUI off, sharing one folder; two agents, each watching its copy. A
/// check-in on device A reaches device B's `status --follow`; kill -9 of an
/// agent or of a Syncthing instance right after a write loses nothing; B's
/// agent, traced by strace, creates no internet socket (Syncthing does the
/// network); a third writer's inbox file reaches both alike. Real-time waits (Syncthing's own watcher and connections):
/// tagged `.hardwareBench`, so `make test` runs it alone.
@Suite(.tags(.hardwareBench), .serialized) struct SyncthingTests {
    static let available = toolExists("syncthing") && toolExists("strace")

    /// One Syncthing instance: its home (keys, config, index) and process.
    final class Instance {
        let home: String
        let folder: String
        let port: Int
        let id: String
        let log: String
        var process: Child?

        init(root: String, name: String) async throws {
            home = root + "/st-" + name
            folder = root + "/sync-" + name
            log = root + "/syncthing-" + name + ".log"
            port = try Self.freePort()
            try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
            let generated = try await Self.tool(["generate", "--home=" + home, "--no-default-folder", "--skip-port-probing"], root: root)
            #expect(generated.status == 0, "\(generated.output)")
            id = try await Self.tool(["serve", "--home=" + home, "--device-id"], root: root).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Writes config.xml: loopback only, both devices with explicit addresses, the shared folder.
        func configure(peers: [Instance]) throws {
            let devices = peers.map { peer in
                "<device id=\"\(peer.id)\" name=\"\(peer.id.prefix(7))\" compression=\"metadata\" introducer=\"false\">"
                    + "<address>tcp://127.0.0.1:\(peer.port)</address></device>"
            }.joined(separator: "\n    ")
            let shares = peers.map { "<device id=\"\($0.id)\" introducedBy=\"\"></device>" }.joined(separator: "\n        ")
            try """
            <configuration version="36">
                <folder id="deskdays" label="deskdays" path="\(folder)" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
                    <filesystemType>basic</filesystemType>
                    \(shares)
                    <minDiskFree unit="%">0</minDiskFree>
                    <markerName>.stfolder</markerName>
                </folder>
                \(devices)
                <gui enabled="false" tls="false"><address>127.0.0.1:0</address></gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(port)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <startBrowser>false</startBrowser>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                </options>
            </configuration>
            """.write(toFile: home + "/config.xml", atomically: true, encoding: .utf8)
        }

        func start() async throws {
            process = try await Child.start("/usr/bin/env", ["syncthing", "serve", "--home=" + home, "--no-browser", "--no-restart", "--no-upgrade"],
                                            overrides: ["STNOUPGRADE": "1", "STNORESTART": "1", "STNODEFAULTFOLDER": "1",
                                                        // Without it `serve` forks a monitor whose kill -9 leaves the
                                                        // real instance running: the kill must hit Syncthing itself.
                                                        "STMONITORED": "1"],
                                            stdout: .file(log), stderr: .file(log))
        }

        /// SIGKILL, then waits until it is gone.
        func stop() async {
            process?.signal(SIGKILL)
            _ = await process?.wait(seconds: 60)
            process = nil
        }

        /// SIGKILL, without waiting (Spawn reaps it): what a `defer` can do.
        func kill9() { process?.signal(SIGKILL) }

        deinit { kill9() }

        /// A TCP port free on 127.0.0.1 now (the test's socket, not DeskDays').
        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw HarnessError("no free port on 127.0.0.1") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        /// Runs `syncthing ARGS` to its end.
        static func tool(_ arguments: [String], root: String) async throws -> (status: Int32, output: String) {
            let output = try await Program.run("/usr/bin/env", ["syncthing"] + arguments,
                                               overrides: ["STNODEFAULTFOLDER": "1", "HOME": root])
            return (output.status, output.stdout + output.stderr)
        }
    }

    @Test(.enabled(if: available, "syncthing and strace needed: apt-get install syncthing strace"))
    func checkInsTravelThroughSyncthingAndSurviveKills() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-syncthing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stA = try await Instance(root: root, name: "a"), stB = try await Instance(root: root, name: "b")
        try stA.configure(peers: [stA, stB])
        try stB.configure(peers: [stA, stB])
        try await stA.start()
        try await stB.start()
        defer { stA.kill9(); stB.kill9() }

        let a = try SyncDevicesTests.Device("laptop", folder: stA.folder), b = try SyncDevicesTests.Device("desk", folder: stB.folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        func socket(_ device: SyncDevicesTests.Device) -> String { device.cli.folder.appendingPathComponent("run/deskdays/agent.sock").path }
        func checkIn(_ date: String) async throws {
            _ = try await a.ok(["checkin", "--date", date, "--status", "office"], now: AgentProcess.fixedNow)
        }
        var agentA: AgentProcess? = try await AgentProcess(a.cli, socket: socket(a))
        let trace = root + "/strace-b.out"
        var agentB: AgentProcess? = try await AgentProcess(b.cli, socket: socket(b),
                                                     launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket", "-o", trace])
        defer { agentA?.kill9(); agentB?.kill9() }
        #expect(await agentB?.waitForLog("watching the sync folder") == true, "\(agentB?.logText ?? "")")
        let follow = try await StatusFollower(b.cli, socket: socket(b))
        defer { follow.stop() }
        let office = try #require(await follow.waitForLine { _ in true })["office"] as? Int ?? 0

        // 1. A check-in on A reaches B's status --follow.
        try await checkIn("2026-03-02")
        #expect(await follow.waitForLine(seconds: 60) { ($0["office"] as? Int) == office + 1 } != nil,
                "B's follower never saw A's check-in; Syncthing B: \((try? String(contentsOfFile: stB.log, encoding: .utf8)) ?? "")")

        // 2. kill -9 of B's agent (strace's child); A writes meanwhile; B's new agent merges it at start.
        _ = await agentB!.stopTraced(SIGKILL)
        agentB = nil
        try await checkIn("2026-03-03")
        let fileA = stB.folder + "/deskdays-" + (try await a.id(in: stA.folder)) + ".jsonl"
        #expect(try await eventually("A's journal line for 2026-03-03 in B's folder") { ((try? String(contentsOfFile: fileA, encoding: .utf8)) ?? "").contains("2026-03-03") },
                "Syncthing carried A's journal line to B's folder")
        agentB = try await AgentProcess(b.cli, socket: socket(b))
        #expect(try await eventually("2026-03-03 office on B") { try await b.ok(["days", "--from", "2026-03-03", "--to", "2026-03-03"], now: AgentProcess.fixedNow).contains("office") })

        // 3. kill -9 of A's agent right after its write returned: the line was already in A's folder.
        try await checkIn("2026-03-04")
        agentA?.kill9()
        _ = await agentA?.ended()
        agentA = nil
        #expect(try await eventually("2026-03-04 office on B") { try await b.ok(["days", "--from", "2026-03-04", "--to", "2026-03-04"], now: AgentProcess.fixedNow).contains("office") })
        agentA = try await AgentProcess(a.cli, socket: socket(a))

        // 4. kill -9 of a Syncthing instance mid-sync (A's, right after the write; then B's): restarted, it delivers.
        try await checkIn("2026-03-05")
        await stA.stop()
        try await stA.start()
        try await checkIn("2026-03-06")
        await stB.stop()
        try await stB.start()
        #expect(try await eventually("2026-03-05 and 2026-03-06 office on B") { try await b.ok(["days", "--from", "2026-03-05", "--to", "2026-03-06"], now: AgentProcess.fixedNow).components(separatedBy: "office").count == 3 })

        // 5. B writes too; both devices end with byte-identical answers.
        _ = try await b.ok(["checkin", "--date", "2026-03-09", "--status", "remote"], now: AgentProcess.fixedNow)
        #expect(try await eventually("2026-03-09 remote on A") { try await a.ok(["days", "--from", "2026-03-09", "--to", "2026-03-09"], now: AgentProcess.fixedNow).contains("remote") })
        let answersA = try await a.ok(["days", "--json", "--from", "2026-03-01", "--to", "2026-03-10"], now: AgentProcess.fixedNow)
        let answersB = try await b.ok(["days", "--json", "--from", "2026-03-01", "--to", "2026-03-10"], now: AgentProcess.fixedNow)
        #expect(answersA == answersB)
        #expect(answersA.components(separatedBy: "\"office\"").count - 1 == 5, "\(answersA)")

        // 6. A third writer (a phone, through A's Syncthing) writes an inbox
        // file: an arrival twice, a bad line, a CRLF departure, a torn line.
        // Both devices apply it alike, and name the bad line.
        try FileManager.default.createDirectory(atPath: stA.folder + "/inbox", withIntermediateDirectories: true)
        try SyncInboxTests.write("2026-03-10T07:00:00+00:00 arrive hq\n2026-03-10T07:00:00+00:00 arrive hq\nat the office\n"
                                 + "2026-03-10T07:45:00+00:00 leave hq\r\n2026-03-10T07:50:00+00:00 arr", to: stA.folder + "/inbox/phone.txt")
        func inboxAnswers(_ device: SyncDevicesTests.Device) async throws -> String {
            try await device.ok(["days", "--json", "--from", "2026-03-01", "--to", "2026-03-10"], now: AgentProcess.fixedNow)
                + device.ok(["report", "--json"], now: AgentProcess.fixedNow)
        }
        for device in [a, b] {
            #expect(try await eventually("the inbox's departure on \(device.name)") { try await inboxAnswers(device).contains("\"last_seen\" : \"07:45\"") })
        }
        let inboxA = try await inboxAnswers(a), inboxB = try await inboxAnswers(b)
        #expect(inboxA == inboxB, "laptop:\n\(inboxA)\ndesk:\n\(inboxB)")
        let statusB = try await b.ok(["sync", "status"], now: AgentProcess.fixedNow)
        #expect(statusB.contains("inbox/phone.txt:3: its time at is not an RFC 3339 time") && statusB.contains("inbox/phone.txt ends in an incomplete line"), "\(statusB)")

        // B's first agent, traced through a merge from Syncthing: no internet socket.
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline).filter { $0.contains("socket(") }
        #expect(calls.contains { $0.contains("AF_UNIX") }, "the trace saw the agent's own sockets")
        let internet = calls.filter { $0.contains("AF_INET") || $0.contains("PF_INET") }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }
}
