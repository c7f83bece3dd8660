import Foundation
import Spawn
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `deskdays` binary as a user would, in a scratch folder.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let folder: URL
    var database: String { folder.appendingPathComponent("data/deskdays.sqlite").path }
    var config: String { folder.appendingPathComponent("config/config.toml").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // `--config` names this file on every run, and a named file must exist: empty means the defaults.
        try writeConfig("")
    }

    /// The binary: `DESKDAYS_BIN` (set by `make test`), else beside the test bundle.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["DESKDAYS_BIN"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        var url = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("deskdays").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return ".build/debug/deskdays"
    }

    /// Runs `deskdays args…` with this runner's config and database unless
    /// given; `launcher` goes in front (`ip netns exec NAME`).
    @discardableResult
    func run(_ arguments: [String], paths: Bool = true, environment: [String: String] = [:],
             launcher: [String] = [], binary: String = CLIRunner.binary) async throws -> Result {
        var args = arguments
        if paths { args += ["--config", config, "--database", database] }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = folder.path
        env["XDG_CONFIG_HOME"] = folder.appendingPathComponent("xdg-config").path
        env["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg-data").path
        env["XDG_CACHE_HOME"] = folder.appendingPathComponent("xdg-cache").path
        env["DESKDAYS_NOW"] = nil
        env["DESKDAYS_TODAY"] = nil
        env["TZ"] = "UTC"
        // English unless a test asks for a language (its `environment` sets LC_ALL/LANG/LANGUAGE).
        env["LC_ALL"] = "C"
        env["LANGUAGE"] = nil
        for (key, value) in environment { env[key] = value }
        let output = launcher.isEmpty
            ? try await Program.run(binary, args, environment: env)
            : try await Program.run(launcher[0], Array(launcher.dropFirst()) + [binary] + args, environment: env)
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    /// The three executables copied into `folder` (made 0755), for a test
    /// that runs them as another user: a clone in a 0700 folder, or one
    /// owned by someone else, is out of that user's reach. Returns the
    /// copy of `deskdays` (its companions beside it, where it looks).
    static func reachableCopy(in folder: String) throws -> String {
        let source = (URL(fileURLWithPath: binary).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o755)
        for name in ["deskdays", "deskdays-cli", "deskdays-hardware"] {
            let target = folder + "/" + name
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target)
            chmod(target, 0o755)
        }
        return folder + "/deskdays"
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: (config as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
    }

    func cleanup() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Whether a program is on PATH (for tests that need it).
func toolExists(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

