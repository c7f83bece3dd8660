import Foundation
import Spawn
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one way programs are started (Sources/Spawn): output kept apart,
/// input fed, exit codes and signals told apart, many children at once.
struct SpawnTests {
    @Test func outputErrorsAndExitCodeAreKeptApart() async throws {
        let result = try await Program.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == 3 && !result.terminatedBySignal)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func inputIsFedAndAnEnvironmentReplacesTheInheritedOne() async throws {
        let result = try await Program.run("/bin/sh", ["-c", "cat; echo \"[$ONLY][$HOME]\""], environment: ["ONLY": "this"],
                                           input: Array("fed\n".utf8))
        #expect(result.stdout == "fed\n[this][]\n")
        let overridden = try await Program.run("/bin/sh", ["-c", "echo \"[$ONLY]\""], overrides: ["ONLY": "that"])
        #expect(overridden.stdout == "[that]\n")
    }

    @Test func aMissingProgramThrows() async {
        await #expect(throws: (any Error).self) { try await Program.run("/nonexistent/program") }
    }

    @Test func aChildLivesOnUntilSignalledAndWritesItsFile() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString).log").path
        defer { unlink(log) }
        let child = try await Child.start("/bin/sh", ["-c", "echo started; exec sleep 600"], stdout: .file(log))
        #expect(child.isRunning)
        child.signal(SIGTERM)
        #expect(await child.wait() == SIGTERM)
        #expect(child.terminatedBySignal && !child.isRunning)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "started\n")
    }

    /// Foundation's Process failed with EBADF here: 64 children from 16 tasks at once, each output whole.
    @Test func manyChildrenAtOnce() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<4 {
                        let result = try await Program.run("/bin/sh", ["-c", "seq 1 2000; echo \(task)-\(round)"])
                        #expect(result.status == 0)
                        #expect(result.stdout.hasSuffix("2000\n\(task)-\(round)\n"))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
