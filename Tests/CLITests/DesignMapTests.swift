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

    /// The modules that use `dependency`, read from the map (which the test above keeps Package.swift's).
    static func users(of dependency: String, map text: String) -> [String] {
        guard let begin = text.range(of: "<!-- map begin -->"), let end = text.range(of: "<!-- map end -->") else { return [] }
        var uses: [String: [String]] = [:], current = ""
        for line in text[begin.upperBound..<end.lowerBound].split(separator: "\n") where !line.hasPrefix("```") {
            var words = line.split(separator: " ").map(String.init)
            // The list of C shims and its continuation lines name no edges.
            if line.hasPrefix("C shims") {
                current = ""
                continue
            }
            if !line.hasPrefix(" "), words.count >= 2 {
                current = words[0]
                words = Array(words.dropFirst(2))
            }
            uses[current, default: []] += words
        }
        return uses.filter { !$0.key.isEmpty && $0.value.contains(dependency) }.map(\.key).sorted()
    }

    /// sd-bus (CSystemd) is reached through SystemBus alone: no other module
    /// depends on it, imports it or calls `sd_bus_` (docs/design.md, "Habits").
    @Test func onlySystemBusReachesSdBus() throws {
        let design = try String(contentsOf: Self.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        #expect(Self.users(of: "CSystemd", map: design) == ["SystemBus"])
        // The rule can fail: a map with one more edge is refused.
        let drifted = design.replacingOccurrences(of: "\nGPSBus                   lib  ", with: "\nGPSBus                   lib  CSystemd ")
        #expect(drifted != design && Self.users(of: "CSystemd", map: drifted) == ["GPSBus", "SystemBus"])
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100)
        for file in files where !file.hasPrefix("SystemBus/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import CSystemd") && !text.contains("sd_bus_"), "Sources/\(file) reaches sd-bus outside SystemBus")
        }
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
