import Foundation
import Testing
import TestSupport

/// docs/design.md's map is generated from Package.swift (docs/map.py), and
/// the documents stay the sizes a person reads (docs/testing.md "Documents").
@Suite struct DesignMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(.enabled(if: toolExists("python3"), "python3 not installed: apt-get install python3"))
    func theMapIsPackageSwifts() async throws {
        let result = try await Program.run("/usr/bin/env", ["python3", Self.root.appendingPathComponent("docs/map.py").path,
                                                            "--check", Self.root.appendingPathComponent("docs/design.md").path])
        #expect(result.status == 0, "\(result.stderr)")
        // The check can fail: a map with one module less is refused.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("design-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: copy) }
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        try text.replacingOccurrences(of: "\nSpawn ", with: "\nSpawnX ").write(to: copy, atomically: true, encoding: .utf8)
        let drifted = try await Program.run("/usr/bin/env", ["python3", Self.root.appendingPathComponent("docs/map.py").path, "--check", copy.path])
        #expect(drifted.status == 1 && drifted.stderr.contains("differs from Package.swift"), "\(drifted.stderr)")
    }

    /// README ≤ 12 KB, design.md ≤ 15 KB, testing.md ≤ 20 KB, all of them ≤ 150 KB.
    @Test func theDocumentsStayReadable() throws {
        func size(_ path: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: Self.root.appendingPathComponent(path).path)[.size] as! Int
        }
        #expect(try size("README.md") <= 12 * 1024)
        #expect(try size("docs/design.md") <= 15 * 1024)
        #expect(try size("docs/testing.md") <= 20 * 1024)
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let total = try (docs + ["README.md", "hardware-notes.md", "po/README"]).map(size).reduce(0, +)
        #expect(total <= 150 * 1024, "\(total) bytes of documents")
    }
}
