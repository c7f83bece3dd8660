/// Finds the line a TOML key was written on.
///
/// TOMLKit (toml++) parses the file but does not expose where a value came
/// from, and `config check` must say `FILE:LINE`. This is not a second TOML
/// parser: it only follows table headers and `key =` lines so that a key
/// path such as `nfc.tags[1].uid` maps to its line; anything it cannot place
/// falls back to the nearest enclosing table.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var current: [String] = []
        var arrayCounts: [String: Int] = [:]
        var lineNumber = 0
        var inMultiline: String?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let delimiter = inMultiline {
                if line.contains(delimiter) { inMultiline = nil }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[[") {
                let name = KeyLocator.headerName(line, open: "[[", close: "]]")
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                // A nested array header restarts the counts below it.
                for key in arrayCounts.keys where key.hasPrefix(name + "[") { arrayCounts[key] = nil }
                current = [KeyLocator.withIndices(name, arrayCounts) + "[\(index)]"]
                record(current.joined(), line: lineNumber)
                continue
            }
            if line.hasPrefix("[") {
                let name = KeyLocator.headerName(line, open: "[", close: "]")
                current = [KeyLocator.withIndices(name, arrayCounts)]
                record(current.joined(), line: lineNumber)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                .split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
                .joined(separator: ".")
            let path = current.isEmpty ? key : current.joined() + "." + key
            record(path, line: lineNumber)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                if !value.dropFirst(3).contains(delimiter) { inMultiline = delimiter }
            }
            if value.hasPrefix("["), !value.contains("]") { inMultiline = "]" }
        }
    }

    private mutating func record(_ path: String, line: Int) {
        if lines[path] == nil { lines[path] = line }
    }

    /// `[ nfc.tags ]` → `nfc.tags`.
    private static func headerName(_ line: String, open: String, close: String) -> String {
        var body = line.dropFirst(open.count)
        if let end = body.range(of: close) { body = body[..<end.lowerBound] }
        return body.split(separator: ".")
            .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
            .joined(separator: ".")
    }

    /// Qualifies a header with the index of the array-of-tables it lives in:
    /// `[nfc.tags.extra]` after the second `[[nfc.tags]]` is `nfc.tags[1].extra`.
    private static func withIndices(_ name: String, _ counts: [String: Int]) -> String {
        var parts = name.split(separator: ".").map(String.init)
        var prefix = ""
        for index in parts.indices {
            prefix = prefix.isEmpty ? parts[index] : prefix + "." + parts[index]
            if index < parts.count - 1, let count = counts[prefix], count > 0 {
                parts[index] += "[\(count - 1)]"
            }
        }
        return parts.joined(separator: ".")
    }

    /// The line of `path`, or of its nearest ancestor, or 1.
    func line(of path: String) -> Int {
        var candidate = path
        while !candidate.isEmpty {
            if let line = lines[candidate] { return line }
            if let bracket = candidate.lastIndex(of: "["), candidate.hasSuffix("]") {
                // `a.b[2]` → try the array itself, then its parent.
                let array = String(candidate[..<bracket])
                if let line = lines[array] { return line }
                candidate = array
                continue
            }
            guard let dot = candidate.lastIndex(of: ".") else { break }
            candidate = String(candidate[..<dot])
        }
        return 1
    }
}

import Foundation
