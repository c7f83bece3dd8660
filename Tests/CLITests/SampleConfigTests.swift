import Foundation
import Testing
import TestSupport

/// The shipped sample configuration is valid and means the defaults.
@Test func sampleConfigPassesConfigCheck() async throws {
    let cli = try CLIRunner()
    defer { cli.cleanup() }
    let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/config.toml").path
    // The user's own copy, as `make install` gives it (the checkout may belong to another user).
    let sample = cli.folder.appendingPathComponent("sample.toml").path
    try FileManager.default.copyAsOwn(atPath: shipped, toPath: sample)
    let check = try await cli.run(["config", "check", "--config", sample], paths: false)
    #expect(check.status == 0, "\(check.stderr)")
    let withSample = try await cli.run(["report", "--json", "--today", "2026-11-18", "--config", sample], paths: false)
    let withNone = try await cli.run(["report", "--json", "--today", "2026-11-18"], paths: false)
    #expect(withSample.stdout == withNone.stdout)
}
