import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays` links no hardware library and hands the hardware commands to
/// `deskdays-hardware` (CommandSupport/Hardware.swift: the one list).
@Suite struct HandOverTests {
    /// What the dynamic loader maps for `binary`, from `ldd`.
    func linkedLibraries(_ binary: String) async throws -> String {
        try await Program.run("/usr/bin/ldd", [binary], stderr: .inherit).stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd"), "ldd not found"))
    func theCommandLineLinksNoHardwareLibrary() async throws {
        let hardwareLibraries = ["libpcsclite", "libnfc", "libzbar", "libv4l2", "libnl-genl", "libqrencode", "libsystemd"]
        let launcher = try await linkedLibraries(CLIRunner.binary)
        #expect(!launcher.contains("libsqlite3") && !launcher.contains("libFoundation"), "the launcher: \(launcher)")
        let light = try await linkedLibraries(CLIRunner.binary + "-cli")
        #expect(light.contains("libsqlite3"), "\(light)")
        for library in hardwareLibraries {
            #expect(!light.contains(library), "deskdays links \(library)")
        }
        let hardware = try await linkedLibraries(CLIRunner.binary + "-hardware")
        #expect(hardware.contains("libpcsclite") && hardware.contains("libzbar"), "\(hardware)")
    }

    /// A hardware command runs in `deskdays-hardware` with the same arguments;
    /// the same flags are validated by `deskdays` first.
    @Test func hardwareCommandsAreHandedOver() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let made = try await cli.run(["qr", "make", "--payload", "deskdays:office:hq", "--terminal"], paths: false)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("█"))
        let bad = try await cli.run(["qr", "make", "--payload", "x", "--scale", "0", "--terminal"], paths: false)
        #expect(bad.status == 1 && bad.stderr.contains("--scale must be 1 to 100"), "\(bad.stderr)")
    }

    /// Runs the copies of the named executables in a `bin` folder of their
    /// own; returns the exit status and standard error.
    func runAlone(_ executables: [String], _ arguments: [String], in cli: CLIRunner) async throws -> (Int32, String) {
        let bin = cli.folder.appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in executables {
            try FileManager.default.copyItem(atPath: (CLIRunner.binary as NSString).deletingLastPathComponent + "/" + name,
                                             toPath: bin + "/" + name)
        }
        let output = try await Program.run(bin + "/deskdays", arguments, stdout: .discard)
        return (output.status, output.stderr)
    }

    /// Without `deskdays-hardware` beside `deskdays` (or in
    /// ../libexec/deskdays), a hardware command fails with one sentence
    /// naming the fix.
    @Test func aMissingHardwareExecutableIsNamed() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let (status, message) = try await runAlone(["deskdays", "deskdays-cli"], ["doctor", "--config", cli.config], in: cli)
        #expect(status == 1)
        #expect(message.contains("needs deskdays-hardware") && message.contains("make install"), "\(message)")
        #expect(message.split(whereSeparator: \.isNewline).count == 1, "\(message)")
    }

    /// Help, and global options before the command, reach the hardware
    /// command tree whole: its own flags, not a placeholder's.
    @Test func helpAndLeadingOptionsReachTheHardwareTree() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let help = try await cli.run(["enroll", "nfc", "--help"], paths: false)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("--by-ndef") && help.stdout.contains("USAGE: deskdays enroll nfc"), "\(help.stdout)")
        let viaHelp = try await cli.run(["help", "qr", "scan"], paths: false)
        #expect(viaHelp.stdout.contains("--camera"), "\(viaHelp.stdout)")
        let listed = try await cli.run(["--help"], paths: false)
        #expect(listed.stdout.contains("agent") && listed.stdout.contains("doctor"), "\(listed.stdout)")
        let leading = try await cli.run(["--config", cli.config, "--database", cli.database, "doctor",
                                   "--socket", cli.folder.appendingPathComponent("none.sock").path], paths: false)
        #expect(leading.stdout.contains("configuration: \(cli.config)"), "\(leading.stdout)\(leading.stderr)")
    }
}
