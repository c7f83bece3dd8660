import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays doctor` on configurations with bad device paths and errors.
struct DoctorCLITests {
    @Test func badDevicePathsFailWithAFixEach() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [gps]
        enabled = true
        source = "serial"
        device = "/dev/deskdays-no-such-gps"

        [[gps.geofences]]
        name = "hq"
        latitude = 51.5072
        longitude = -0.1276

        [nfc]
        enabled = true
        backend = "libnfc"
        connstring = "pn532_uart:/dev/deskdays-no-such-reader"

        [[nfc.tags]]
        name = "desk"
        uid = "04A2246A2F6E80"
        """)
        let result = try await cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("PROBLEM /dev/deskdays-no-such-gps does not exist"), "\(result.stdout)")
        #expect(result.stdout.contains("PROBLEM /dev/deskdays-no-such-reader does not exist"))
        #expect(result.stdout.contains("fix: plug it in"))
        #expect(result.stdout.contains("agent: not running"))
        #expect(!result.stdout.contains("51.50"), "no coordinates in the output")
    }

    @Test func aWorkingSerialDevicePasses() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // /dev/null stands in for a tty the user may open: a character device, readable and writable.
        try cli.writeConfig("""
        [gps]
        enabled = true
        source = "serial"
        device = "/dev/null"

        [[gps.geofences]]
        name = "hq"
        latitude = 51.5072
        longitude = -0.1276
        """)
        let result = try await cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(result.stdout.contains("ok      /dev/null is present and readable"), "\(result.stdout)")
        let modemManagerRunning = result.stdout.contains("ModemManager is running")
        #expect(result.status == 0 || modemManagerRunning, "\(result.stdout)")
    }

    @Test func aConfigErrorIsNamedWithItsLine() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[gps]\nenabeld = true\n")
        let result = try await cli.run(["doctor"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("config.toml:2:"), "\(result.stdout)")
    }

    @Test func doctorSeesARunningAgent() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let result = try await cli.run(["doctor", "--socket", agent.socket])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("agent: running"))
    }

    /// doctor runs the checks every write runs first, quick_check among
    /// them, without touching the file.
    @Test func aDamagedDatabaseIsAProblemAndLeftAsItWas() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let socket = ["--socket", cli.folder.appendingPathComponent("none.sock").path]
        let fresh = try await cli.run(["doctor"] + socket)
        #expect(fresh.stdout.contains("no database yet"), "\(fresh.stdout)")
        _ = try await cli.run(["checkin", "--from", "2026-01-05", "--to", "2026-06-30", "--note", String(repeating: "n", count: 300)])
        let healthy = try await cli.run(["doctor"] + socket)
        #expect(healthy.stdout.contains("ok      the database passes SQLite's quick_check"), "\(healthy.stdout)")
        // Fold the log into the file, then scribble over a page in its middle.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            _ = try await Program.run("/usr/bin/sqlite3", [cli.database, "PRAGMA wal_checkpoint(TRUNCATE);"], stderr: .inherit)
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: cli.database))
        let pages = try handle.seekToEnd() / 4096
        try handle.seek(toOffset: (pages / 2) * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.database))
        let damaged = try await cli.run(["doctor"] + socket)
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("PROBLEM") && damaged.stdout.contains("is damaged"), "\(damaged.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before, "doctor changed the file")
    }
}
