/// Finds the line a TOML key was written on.
///
/// TOMLKit (toml++) parses the file but does not expose where a value came
/// from, and `config check` must say `FILE:LINE`. From the statements
/// `TOMLLayout` finds, a key path such as `nfc.tags[1].uid` maps to its
/// line; anything it cannot place falls back to the nearest enclosing table.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    /// Reads the statements `TOMLLayout` finds (the one TOML scanner here);
    /// a text it cannot follow places every key at line 1.
    init(text: String) {
        guard let layout = TOMLLayout(text) else { return }
        var lineStarts = [0]
        for (offset, byte) in layout.bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        func lineNumber(_ offset: Int) -> Int {
            // The last line start at or before `offset`, counted from 1.
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return low + 1
        }
        var current = ""
        var arrayCounts: [String: Int] = [:]
        for line in layout.lines {
            switch line.statement {
            case .trivia:
                continue
            case .header(let key, let isArray):
                let name = key.joined(separator: ".")
                if isArray {
                    let index = arrayCounts[name, default: 0]
                    arrayCounts[name] = index + 1
                    // A nested array header restarts the counts below it.
                    for other in arrayCounts.keys where other.hasPrefix(name + ".") { arrayCounts[other] = nil }
                    current = KeyLocator.withIndices(name, arrayCounts) + "[\(index)]"
                } else {
                    current = KeyLocator.withIndices(name, arrayCounts)
                }
                record(current, line: lineNumber(line.range.lowerBound))
            case .keyValue(let key, _):
                let name = key.joined(separator: ".")
                record(current.isEmpty ? name : current + "." + name, line: lineNumber(line.range.lowerBound))
            }
        }
    }

    private mutating func record(_ path: String, line: Int) {
        if lines[path] == nil { lines[path] = line }
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
