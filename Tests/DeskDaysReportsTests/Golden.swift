import Foundation
import Testing

/// Golden files beside this source file, in `Golden/`.
///
/// `DESKDAYS_REGENERATE_GOLDEN=1 swift test --filter DeskDaysReportsTests`
/// (or `Tests/DeskDaysReportsTests/regenerate-golden.sh`) rewrites them; a
/// commit that changes one says why (gpsd's `*.chk` habit, docs/design.md, habit 8).
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static var regenerating: Bool { ProcessInfo.processInfo.environment["DESKDAYS_REGENERATE_GOLDEN"] == "1" }

    /// Checks `actual` against `Golden/name`, or writes it when regenerating.
    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if regenerating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("Golden/\(name) is missing; run Tests/DeskDaysReportsTests/regenerate-golden.sh", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let line = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
            let got = first < actualLines.count ? String(actualLines[first]) : "<end>"
            Issue.record("Golden/\(name) differs at line \(first + 1):\n expected: \(line.debugDescription)\n      got: \(got.debugDescription)",
                         sourceLocation: sourceLocation)
        }
    }
}
