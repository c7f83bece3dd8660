import Foundation
import Testing
import Spawn
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

    /// Each module's dependencies as Package.swift lists them (test targets
    /// left out), another package's products by their names.
    static func edges(_ package: String) -> [String: Set<String>] {
        let text = package.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.firstRange(of: "// ").map { String(line[..<$0.lowerBound]) } ?? String(line) }.joined(separator: "\n")
        var edges: [String: Set<String>] = [:]
        for chunk in text.split(separator: /\.(target|executableTarget|testTarget|systemLibrary)\(name: "/).dropFirst() {
            guard let name = chunk.split(separator: "\"").first, !text.contains(".testTarget(name: \"\(name)\"") else { continue }
            var listed = ""
            if let start = chunk.firstRange(of: "dependencies: [") {
                listed = String(chunk[start.upperBound...].prefix { $0 != "]" }).replacing(/package: "[^"]*"/, with: "")
            }
            edges[String(name)] = Set(listed.matches(of: /"([^"]+)"/).map { String($0.1) })
        }
        return edges
    }

    /// The edges the design forbids (docs/design.md, "Habits"): an adapter
    /// → the command line (ArgumentParser, CommandSupport); the pure core →
    /// a module that does I/O; any module but SystemBus → sd-bus (CSystemd).
    static func forbiddenEdges(_ edges: [String: Set<String>]) -> [String] {
        let adapters = edges.keys.filter { $0.hasSuffix("Adapter") } + ["GPSBus", "NetworkPresence"]
        let core = ["DeskDaysCore", "DeskDaysReports", "NMEA", "NDEF", "QR", "NL80211"]
        let io: Set = ["Syscall", "Files", "Spawn", "DeviceThread", "SystemBus", "AgentSocket", "DeskDaysStore", "DeskDaysSync",
                       "GRDB", "GRDBSQLite", "Subprocess", "SystemPackage", "CSystemd", "CPCSC", "CNFC", "CV4L2", "CNetlink", "CNetlinkRoute"]
        var found: [String] = []
        for adapter in adapters { for bad in edges[adapter, default: []].intersection(["ArgumentParser", "CommandSupport"]) { found.append("\(adapter) → \(bad)") } }
        for module in core { for bad in edges[module, default: []].intersection(io.union(adapters)) { found.append("\(module) → \(bad)") } }
        for (module, uses) in edges where module != "SystemBus" && uses.contains("CSystemd") { found.append("\(module) → CSystemd") }
        return found.sorted()
    }

    @Test func packageSwiftHasNoForbiddenEdge() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let edges = Self.edges(package)
        #expect(edges["NFCAdapter"]?.contains("NDEF") == true && edges["DeskDaysCLI"]?.contains("ArgumentParser") == true)
        #expect(edges.count > 50 && edges["CLITests"] == nil)
        #expect(Self.forbiddenEdges(edges) == [])
        // The rule can fail: each kind of forbidden edge added is named.
        let drifted = package
            .replacingOccurrences(of: "name: \"NFCAdapter\", dependencies: [", with: "name: \"NFCAdapter\", dependencies: [\"CommandSupport\", ")
            .replacingOccurrences(of: "name: \"DeskDaysCore\", dependencies: [", with: "name: \"DeskDaysCore\", dependencies: [\"Files\", ")
            .replacingOccurrences(of: "name: \"ICal\", dependencies: [", with: "name: \"ICal\", dependencies: [\"CSystemd\", ")
        #expect(Self.forbiddenEdges(Self.edges(drifted)) == ["DeskDaysCore → Files", "ICal → CSystemd", "NFCAdapter → CommandSupport"])
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
