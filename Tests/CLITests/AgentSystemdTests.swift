import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent's side of `Type=notify`: READY=1 once the socket listens, then
/// WATCHDOG=1 at half of `WATCHDOG_USEC`, as datagrams on `$NOTIFY_SOCKET`;
/// and the shipped unit's sandbox keeps the options the privacy claim rests on.
struct AgentSystemdTests {
    @Test func readyAndWatchdogReachTheNotifySocket() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("notify.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let agent = try await AgentProcess(cli, environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"])
        defer { agent.kill9() }
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while messages.filter({ $0 == "WATCHDOG=1" }).count < 2 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 2, "\(messages)")
        #expect(await agent.stop() == 0)
        var last = ""
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            last = String(decoding: buffer[0..<count], as: UTF8.self)
            if last == "STOPPING=1" { break }
        }
        #expect(last == "STOPPING=1")
    }

    @Test func theUnitKeepsTheSandboxThePrivacyClaimRestsOn() async throws {
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/deskdays.service")
        let lines = try String(contentsOf: unit, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }.map(String.init)
        for required in ["Type=notify", "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "IPAddressDeny=any",
                         "NoNewPrivileges=yes", "PrivateUsers=yes", "ProtectSystem=strict", "WatchdogSec=60",
                         "ReadWritePaths=%h %t/deskdays"] {
            #expect(lines.contains(required), "\(required) missing from config/deskdays.service")
        }
        // The home is writable (the [sync] folder is wherever the configuration
        // says), but not where code that runs later lives.
        let readOnly = lines.filter { $0.hasPrefix("ReadOnlyPaths=") }
            .flatMap { $0.dropFirst("ReadOnlyPaths=".count).split(separator: " ").map(String.init) }
        for path in ["-%h/.ssh", "-%h/.bashrc", "-%h/.config/systemd", "-%h/.config/autostart"] {
            #expect(readOnly.contains(path), "ReadOnlyPaths= lacks \(path)")
        }
    }
}

/// SIGHUP: a valid configuration replaces the running one; a bad one is
/// rejected with the old one kept, and the agent keeps serving.
struct AgentReloadTests {
    @Test func sighupReloadsAGoodConfigurationAndKeepsTheOldOneOnErrors() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy.target]\nkind = \"percent\"\nvalue = 60\n")
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        func target() -> Double? {
            let status = (try? TestSocketClient(path: agent.socket))?.status()
            return (status?["target"] as? [String: Any])?["value"] as? Double
        }
        #expect(target() == 60)

        try cli.writeConfig("[policy.target]\nkind = \"percent\"\nvalue = 60\nvalu = 80\n")
        kill(agent.pid, SIGHUP)
        #expect(await agent.waitForLog("configuration reload rejected"), "\(agent.logText)")
        #expect(agent.logText.contains("config.toml:4:"), "the problem is named with its line")
        #expect(target() == 60, "the old configuration is kept")

        try cli.writeConfig("[policy.target]\nkind = \"percent\"\nvalue = 80\n")
        kill(agent.pid, SIGHUP)
        #expect(await agent.waitForLog("configuration reloaded"), "\(agent.logText)")
        #expect(await eventually("the reloaded target 80 in the agent's status") { target() == 80 })
        #expect(await agent.stop() == 0)
    }
}
