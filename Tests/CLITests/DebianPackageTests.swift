import Foundation
import Testing
import Spawn
import TestSupport

/// The Debian package as a stranger gets it (docs/testing.md, "The Debian
/// package"): `make deb` run inside `unshare -n` (a network namespace with
/// only a loopback device, which is down), so the build can use nothing but
/// the Swift packages already on the machine; lintian's verdict; then
/// Tests/Harness/deb/check.sh (apt-get install into a bare `debootstrap
/// --variant=minbase bookworm`, a new user checks in, reports and runs
/// doctor, purge leaves nothing) and Tests/Harness/deb/systemd.sh (Debian 12
/// booted by systemd-nspawn with systemd as PID 1, the agent under the user
/// unit of a lingering user). One build serves every test. The release build
/// is kept in `.build/deb` between runs (`make deb` compiles only what
/// changed), the two Debian trees as tarballs in `.build/deb-test`.
@Suite(.tags(.hardwareBench), .serialized) struct DebianPackageTests {
    /// The project folder (this file is Tests/CLITests/DebianPackageTests.swift).
    static let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The Makefile's DEB_DIR: the source copy, its release build, the .deb.
    static let debDir = project.appendingPathComponent(".build/deb")

    /// Why these tests cannot run here (printed once), or nil.
    static let missing = Task<String?, Never> {
        let reason = await whyNot()
        if let reason { print("DebianPackageTests skipped: \(reason)") }
        return reason
    }
    static let enabled = ConditionTrait.enabled("needs root, a network namespace, the tools of deps/apt-deb.txt and a Swift toolchain (reason printed above)") {
        await missing.value == nil
    }

    static func whyNot() async -> String? {
        if getuid() != 0 { return "needs root (unshare -n, debootstrap, chroot, mount, systemd-nspawn)" }
        let tools = [("make", "make"), ("git", "git"), ("unshare", "util-linux"), ("nsenter", "util-linux"),
                     ("dpkg-buildpackage", "dpkg-dev"), ("dh", "debhelper"), ("fakeroot", "fakeroot"),
                     ("lintian", "lintian"), ("debootstrap", "debootstrap"), ("systemd-nspawn", "systemd-container")]
        for (tool, package) in tools where !toolExists(tool) {
            return "\(tool) not installed: apt-get install \(package) (deps/apt-deb.txt)"
        }
        if !FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swift") && !toolExists("swift") {
            return "no Swift toolchain in /opt/swift/usr/bin or on PATH for the release build"
        }
        let probe = try? await Program.run("unshare", ["-n", "true"], stdout: .discard)
        if probe?.status != 0 {
            return "cannot make a network namespace here (unshare -n: \(probe?.stderr.trimmingCharacters(in: .whitespacesAndNewlines) ?? "not started"))"
        }
        return nil
    }

    /// The one `unshare -n make deb`, started by the first test that asks.
    static let build = Task { await PackageBuild.make() }

    @Test func prerequisites() async {
        _ = await Self.missing.value
    }

    @Test("make deb builds the package in a network namespace with only lo", enabled, .timeLimit(.minutes(60)))
    func buildsWithoutTheNetwork() async throws {
        let build = await Self.build.value
        #expect(build.status == 0, "make deb exited \(build.status):\n\(build.tail)")
        // /proc/net/dev as make saw it: the loopback device alone.
        #expect(build.interfaces == ["lo"], "network devices in the build's namespace: \(build.interfaces)")
        let deb = try #require(build.deb, "no .deb in \(Self.debDir.path):\n\(build.tail)")
        #expect(deb.hasPrefix(Self.debDir.path + "/deskdays_") && deb.hasSuffix(".deb"))
        // Built from the source copy: nothing written into the tree or the folder above it during the build.
        let parent = Self.project.deletingLastPathComponent().path
        let above = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix("deskdays_") || $0.hasPrefix("deskdays-dbgsym_") }
        let written = (above.map { parent + "/" + $0 } + [Self.project.appendingPathComponent("debian/deskdays").path]).filter {
            ((try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date ?? .distantPast) >= build.started
        }
        #expect(written.isEmpty, "make deb wrote outside .build/deb: \(written)")
        print("make deb in unshare -n: \(Int(build.seconds)) s, \(deb)")
    }

    @Test("lintian prints no error and no warning", enabled, .timeLimit(.minutes(60)))
    func lintianIsClean() async throws {
        let build = await Self.build.value
        // make deb runs `lintian --fail-on error,warning` last (a finding fails
        // it and so the build test); its lines are in the log.
        try #require(build.log.contains("lintian --fail-on error,warning"), "lintian did not run:\n\(build.tail)")
        let findings = build.log.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }

    @Test("a missing Swift package is named in one sentence, without the network", enabled, .timeLimit(.minutes(10)))
    func missingPackageIsNamed() async throws {
        // A fresh DEB_DIR (no checkouts), an empty SwiftPM cache, and neither git
        // nor SwiftPM with this machine's configuration, which may point GitHub at
        // local copies: git's system, global and environment settings (url.insteadOf)
        // and SwiftPM's mirrors (~/.swiftpm/configuration) all stay out, so the
        // packages can only come from the network, which the namespace lacks.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("home"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let isolated: [String: String?] = [
            "HOME": scratch.path + "/home", "XDG_CONFIG_HOME": nil, "XDG_CACHE_HOME": nil,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_COUNT": nil, "GIT_CONFIG_PARAMETERS": nil]
        // Bounded: should anything still reach the packages, make would go on to a
        // release build from nothing; `timeout` ends it (status 124) and the
        // expectations below say so, instead of the suite waiting out its limit.
        let result = try await Program.run("timeout", ["--kill-after=10", "240", "unshare", "-n", "make", "--no-print-directory", "deb",
                                                       "DEB_DIR=\(scratch.path)/deb", "SWIFTPM_CACHE=\(scratch.path)/cache"],
                                           overrides: PackageBuild.environment.merging(isolated) { $1 },
                                           workingDirectory: Self.project.path)
        #expect(result.status != 0)
        #expect(result.status != 124, "make deb still ran after 240 s: the packages were reachable in the namespace:\n\(result.stderr.suffix(2000))")
        let sentences = result.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("make deb: ") }
        #expect(sentences.count == 1, "\(result.stderr)")
        let sentence = String(sentences.first ?? "")
        #expect(sentence.contains("https://github.com/"), "names no package: \(sentence)")
        #expect(sentence.contains("swift package resolve"), "\(sentence)")
        #expect(!FileManager.default.fileExists(atPath: "\(scratch.path)/deb/deskdays/.build/release"), "it built anyway")
    }

    @Test("a resolve that hangs is stopped, and the packages it was fetching are named", enabled, .timeLimit(.minutes(5)))
    func hangingResolveIsBounded() async throws {
        // SwiftPM's resolve has been seen to hang after failed fetches
        // (swiftlang/swift-package-manager#9274; once in CI here). A stand-in
        // for `swift` prints SwiftPM's first lines and then hangs, with its
        // own child, as that report describes.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let swift = scratch.appendingPathComponent("swift").path
        let marker = "deskdays-hang-\(UUID().uuidString)"
        try """
        #!/bin/bash
        echo "Fetching https://github.com/apple/swift-log"
        echo "Fetching https://github.com/groue/GRDB.swift"
        echo "Fetched https://github.com/groue/GRDB.swift from cache (0.1s)"
        bash -c 'exec -a \(marker) sleep 600' &
        wait
        """.write(toFile: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        let result = try await Program.run("timeout", ["--kill-after=10", "120", "make", "--no-print-directory", "deb",
                                                       "DEB_DIR=\(scratch.path)/deb", "SWIFTPM_CACHE=\(scratch.path)/cache",
                                                       "SWIFT=\(swift)", "DEB_RESOLVE_SECONDS=2"],
                                           overrides: PackageBuild.environment, workingDirectory: Self.project.path)
        #expect(result.status != 0 && result.status != 124, "make deb exited \(result.status):\n\(result.stderr)")
        let sentences = result.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("make deb: ") }
        #expect(sentences.count == 1, "\(result.stderr)")
        let sentence = String(sentences.first ?? "")
        #expect(sentence.contains("https://github.com/apple/swift-log are neither"), "\(sentence)")
        #expect(!sentence.contains("GRDB"), "a fetched package is named: \(sentence)")
        #expect(sentence.contains("did not finish in 2 s"), "\(sentence)")
        // Nothing the stand-in started is left behind.
        let left = try await Program.run("pgrep", ["-f", marker])
        #expect(left.status == 1, "still running: \(left.stdout)")
    }

    @Test("apt-get install into a bare Debian 12; a new user checks in, reports, runs doctor; purge leaves nothing",
          enabled, .timeLimit(.minutes(60)))
    func installsIntoBareDebian() async throws {
        let deb = try #require(await Self.build.value.deb, "no package built")
        let run = try await Self.harness("check.sh", deb)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("== PASS: "), "\(run.output)")
    }

    @Test("under systemd as PID 1: the user unit, a check-in through the agent, the sync folder, reload, busctl, purge",
          enabled, .timeLimit(.minutes(60)))
    func runsUnderSystemd() async throws {
        let deb = try #require(await Self.build.value.deb, "no package built")
        let run = try await Self.harness("systemd.sh", deb)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("== PASS: "), "\(run.output)")
    }

    /// Runs Tests/Harness/deb/NAME with the package; its status and its output (both streams, in order).
    static func harness(_ name: String, _ deb: String) async throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-\(name)-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let script = project.appendingPathComponent("Tests/Harness/deb/\(name)").path
        let result = try await Program.run("/bin/bash", [script, deb], workingDirectory: project.path,
                                           stdout: .file(log), stderr: .file(log))
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        print(output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("==") }.joined(separator: "\n"))
        return (result.status, output)
    }
}

/// The outcome of the one `unshare -n make deb`.
struct PackageBuild: Sendable {
    var status: Int32
    /// make's output, both streams (also kept in .build/deb/make-deb.log).
    var log: String
    /// The network devices /proc/net/dev listed inside the namespace.
    var interfaces: [String]
    /// The package, when one was built.
    var deb: String?
    var started: Date
    var seconds: Double

    var tail: String { log.split(whereSeparator: \.isNewline).suffix(40).joined(separator: "\n") }

    /// make under `swift test` under `make test`: not the outer make's jobserver.
    static let environment: [String: String?] = ["MAKEFLAGS": nil, "MFLAGS": nil, "MAKELEVEL": nil]

    static func make() async -> PackageBuild {
        let dir = DebianPackageTests.debDir.path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let log = dir + "/make-deb.log", devices = dir + "/netdev.txt"
        try? FileManager.default.removeItem(atPath: log)
        // The two Debian trees (debootstrap, minutes the first time) are made meanwhile, outside the namespace.
        async let prepared: Void = prepareTrees()
        let started = ContinuousClock.now, startedAt = Date()
        let status: Int32
        do {
            status = try await Program.run(
                "unshare", ["-n", "/bin/bash", "-c", "cat /proc/net/dev > \"$1\" && exec make --no-print-directory deb", "bash", devices],
                overrides: environment, workingDirectory: DebianPackageTests.project.path,
                stdout: .file(log), stderr: .file(log)).status
        } catch {
            await prepared
            return PackageBuild(status: 127, log: "cannot start unshare: \(error)", interfaces: [], deb: nil, started: startedAt, seconds: 0)
        }
        let elapsed = ContinuousClock.now - started
        await prepared
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // /proc/net/dev: two header lines, then "  NAME: counters…".
        let interfaces = ((try? String(contentsOfFile: devices, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline)
            .dropFirst(2).compactMap { $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) }
        let deb = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .first { $0.hasPrefix("deskdays_") && $0.hasSuffix(".deb") }.map { dir + "/" + $0 }
        return PackageBuild(status: status, log: text, interfaces: interfaces, deb: status == 0 ? deb : nil, started: startedAt,
                            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `check.sh --prepare` and `systemd.sh --prepare`: their tarballs, when
    /// missing. A failure shows again, with its reason, when the test runs the script.
    static func prepareTrees() async {
        await withTaskGroup(of: Void.self) { group in
            for name in ["check.sh", "systemd.sh"] {
                group.addTask {
                    let script = DebianPackageTests.project.appendingPathComponent("Tests/Harness/deb/\(name)").path
                    _ = try? await Program.run("/bin/bash", [script, "--prepare"], workingDirectory: DebianPackageTests.project.path,
                                               stdout: .discard, stderr: .discard)
                }
            }
        }
    }
}
