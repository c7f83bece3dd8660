import Foundation
import Testing

/// `deskdays doctor` on configurations with bad device paths and errors.
struct DoctorCLITests {
    @Test func badDevicePathsFailWithAFixEach() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [gps]
        enabled = true
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
        let result = try cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("PROBLEM /dev/deskdays-no-such-gps does not exist"), "\(result.stdout)")
        #expect(result.stdout.contains("PROBLEM /dev/deskdays-no-such-reader does not exist"))
        #expect(result.stdout.contains("fix: plug it in"))
        #expect(result.stdout.contains("agent: not running"))
        #expect(!result.stdout.contains("51.50"), "no coordinates in the output")
    }

    @Test func aWorkingSerialDevicePasses() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // /dev/null stands in for a tty the user may open: a character device, readable and writable.
        try cli.writeConfig("""
        [gps]
        enabled = true
        device = "/dev/null"

        [[gps.geofences]]
        name = "hq"
        latitude = 51.5072
        longitude = -0.1276
        """)
        let result = try cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(result.stdout.contains("ok      /dev/null is present and readable"), "\(result.stdout)")
        let modemManagerRunning = result.stdout.contains("ModemManager is running")
        #expect(result.status == 0 || modemManagerRunning, "\(result.stdout)")
    }

    @Test func aConfigErrorIsNamedWithItsLine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[gps]\nenabeld = true\n")
        let result = try cli.run(["doctor"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("config.toml:2:"), "\(result.stdout)")
    }

    @Test func doctorSeesARunningAgent() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try AgentProcess(cli)
        defer { agent.kill9() }
        let result = try cli.run(["doctor", "--socket", agent.socket])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("agent: running"))
    }
}
