import Foundation
import Spawn
import TestSupport
import Testing

/// `report --json` against an independent implementation of docs/policy.md.
///
/// `Tests/Oracle/fuzz.py` generates seeded random cases (configurations,
/// histories of manual, imported and automatic records, todays around DST
/// changes), feeds each through this build's CLI and compares every figure
/// with `Tests/Oracle/oracle.py`, which was written from docs/policy.md alone. A
/// second reading of the policy catches misreadings that tests derived from
/// the implementation would share. The seed is fixed, so a failure repeats.
@Suite struct PolicyOracleTests {
    static let python = "/usr/bin/python3"
    /// About 16 s on 2 cores with the debug build (40 cases, 120 reports);
    /// run fuzz.py by hand for more seeds and cases.
    static let cases = 40
    static let seed = 20260

    /// The package root: this file is Tests/CLITests/PolicyOracleTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every report of the seeded random cases agrees with oracle.py",
          .enabled(if: FileManager.default.isExecutableFile(atPath: python),
                   "/usr/bin/python3 not found: apt-get install python3"))
    func reportsAgreeWithOracle() async throws {
        var binary = CLIRunner.binary
        if !binary.hasPrefix("/") { binary = Self.packageRoot.appendingPathComponent(binary).path }
        let output = try await Program.run(Self.python, ["Tests/Oracle/fuzz.py", "\(Self.cases)", "\(Self.seed)", "2"],
                                           overrides: ["DESKDAYS_BIN": binary], workingDirectory: Self.packageRoot.path)
        #expect(output.status == 0,
                "fuzz.py \(Self.cases) \(Self.seed) 2 (DESKDAYS_BIN=\(binary)) exited \(output.status):\n\(output.stdout)\(output.stderr)")
    }
}
