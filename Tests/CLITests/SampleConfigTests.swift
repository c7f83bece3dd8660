import Foundation
import Testing

/// The shipped sample configuration is valid and means the defaults.
@Test func sampleConfigPassesConfigCheck() async throws {
    let cli = try CLIRunner()
    defer { cli.cleanup() }
    let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/config.toml").path
    let check = try await cli.run(["config", "check", "--config", sample], paths: false)
    #expect(check.status == 0, "\(check.stderr)")
    let withSample = try await cli.run(["report", "--json", "--today", "2026-11-18", "--config", sample], paths: false)
    let withNone = try await cli.run(["report", "--json", "--today", "2026-11-18"], paths: false)
    #expect(withSample.stdout == withNone.stdout)
}
