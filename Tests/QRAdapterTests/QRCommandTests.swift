import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays qr make`, `deskdays qr scan` and `deskdays checkin --qr` as a
/// user runs them (the built binary, a scratch folder).
struct QRCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-qr-cli-\(UUID().uuidString)")

    /// Runs the binary; `paths` adds --config (written from `config`) and --database.
    func deskdays(_ arguments: [String], config: String = "", paths: Bool = true) async throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try #require(Support.binary)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configPath = folder.appendingPathComponent("config.toml").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let extra = paths ? ["--config", configPath, "--database", folder.appendingPathComponent("d.sqlite").path] : []
        let result = try await Support.run(binary, arguments + extra,
                                     environment: ["HOME": folder.path, "TZ": "UTC", "DESKDAYS_NOW": "", "DESKDAYS_TODAY": ""])
        return (result.status, String(decoding: result.stdout, as: UTF8.self), result.stderr)
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found: run `swift build` first or set DESKDAYS_BIN"))
    func makeThenScanShowsThePayloadAndItsRule() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("hq.png").path
        let config = "[qr]\npayloads = [\"deskdays:office:hq\"]\nprefixes = [\"deskdays:badge:\"]\n"
        let made = try await deskdays(["qr", "make", "--payload", "deskdays:office:hq", "--out", png, "--terminal"], paths: false)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("█"))
        let badge = folder.appendingPathComponent("badge.png").path
        #expect(try await deskdays(["qr", "make", "--payload", "deskdays:badge:0042", "--out", badge], paths: false).status == 0)
        let other = folder.appendingPathComponent("other.png").path
        #expect(try await deskdays(["qr", "make", "--payload", "https://example.com", "--out", other], paths: false).status == 0)

        let scanned = try await deskdays(["qr", "scan", png, badge, other], config: config)
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(scanned.stdout.split(separator: "\n") == [
            "\(png)\tdeskdays:office:hq\tpayload-1",
            "\(badge)\tdeskdays:badge:0042\tprefix-1",
            "\(other)\thttps://example.com\t-",
        ])
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func unreadableImageIsOneLineAndExitOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await deskdays(["qr", "scan", folder.appendingPathComponent("absent.png").path])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("does not exist"), "\(result.stderr)")
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func checkinWithoutACameraIsOneClearLine() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let device = folder.appendingPathComponent("video9").path
        let result = try await deskdays(["checkin", "--qr"], config: "[qr]\nenabled = true\ndevice = \"\(device)\"\npayloads = [\"x\"]\n")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last == "deskdays: No camera at \(device): plug one in, or set [qr] device to its path (see `v4l2-ctl --list-devices`).",
                "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func checkinQRRefusesManualOptions() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await deskdays(["checkin", "--qr", "--status", "remote"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--qr records an automatic office check-in"))
    }
}

/// The agent with a watch-mode camera that is not there: it says so once,
/// keeps running (retrying with backoff), and stops cleanly on SIGTERM.
struct QRAgentTests {
    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func missingCameraDoesNotStopTheAgent() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-qr-agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let device = folder.appendingPathComponent("video7").path
        let config = folder.appendingPathComponent("config.toml").path
        try "[qr]\nenabled = true\nmode = \"watch\"\ndevice = \"\(device)\"\npayloads = [\"x\"]\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("agent.log")
        let agent = try await Child.start(
            try #require(Support.binary),
            ["agent", "--config", config, "--database", folder.appendingPathComponent("d.sqlite").path],
            overrides: ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "DESKDAYS_LOG": "debug"],
            stderr: .file(log.path))
        defer { agent.signal(SIGKILL) }
        func text() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // Three attempts have failed once the third delay is announced (0.5 s, 1 s, 2 s).
        #expect(await eventually("the agent's third camera retry (next attempt in 2.0 s)") { text().contains("next attempt in 2.0 s") },
                "\(text())")
        #expect(agent.isRunning, "\(text())")
        #expect(text().components(separatedBy: "No camera at \(device)").count == 2, "said once, not on every retry:\n\(text())")
        agent.signal(SIGTERM)
        let status = await agent.wait(seconds: 60)
        #expect(status != nil, "the agent stops on SIGTERM")
        #expect(status == 0 && !agent.terminatedBySignal)
    }
}
