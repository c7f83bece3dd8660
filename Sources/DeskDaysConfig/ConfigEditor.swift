import Files
import Localization
import DeskDaysCore
import Foundation
import TOMLKit

/// Edits the user's config file without disturbing what they wrote:
/// `enroll` appends a new TOML block and never rewrites existing lines, so
/// comments and layout survive.
public enum ConfigEditor {
    /// Appends `block` (complete TOML, e.g. a `[[gps.geofences]]` table) to
    /// the file at `path`, creating it (0600, its folder 0700) when missing.
    /// The old content is kept byte for byte and the file replaced as
    /// `replaceContents` does (atomically, mode and symbolic link kept). A
    /// file that exists but cannot be read as UTF-8 text is left alone.
    public static func appendBlock(_ block: String, to path: String) throws {
        var text = ""
        if FileManager.default.fileExists(atPath: path) {
            text = try String(contentsOfFile: path, encoding: .utf8)
        }
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        if !text.isEmpty { text += "\n" }
        text += block.hasSuffix("\n") ? block : block + "\n"
        try replaceContents(of: path, with: text)
    }

    // MARK: - Adding to a list

    /// What `addString(_:toArray:inTable:file:values:)` did.
    public enum Addition: Sendable, Equatable {
        case added
        /// The list already held the value; the file was not touched.
        case alreadyPresent
    }

    /// The edit could not be made with certainty; nothing was written.
    /// `instruction` says what to add by hand (it holds the value: for the
    /// user's terminal only, never a log).
    public struct ManualEditNeeded: Error, CustomStringConvertible, Sendable {
        public let instruction: String
        public var description: String { instruction }
    }

    /// Adds `value` to the string list `key` of the table `[table]` in the
    /// file at `path` (`enroll qr`: `[qr] payloads`), changing only that
    /// spot: no table → a `[table]` block is appended; a table without the
    /// key → the key's line goes right after the header; a list (on one line
    /// or several) → the value goes after its last element, in its style.
    ///
    /// The edited text is parsed again by `ConfigLoader` and written only if
    /// it means the old configuration with `value` appended at `values`;
    /// otherwise `ManualEditNeeded` is thrown. A configuration with problems
    /// throws its `ConfigError` (fix those first). The file is replaced
    /// atomically, keeping its mode (a new file is 0600, its folder 0700).
    public static func addString(_ value: String, toArray key: String, inTable table: String, file path: String,
                                 values: WritableKeyPath<Configuration, [String]>) throws -> Addition {
        let original = try ConfigLoader.load(path: path)
        if original[keyPath: values].contains(value) { return .alreadyPresent }
        let text: String
        if FileManager.default.fileExists(atPath: path) {
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ConfigError(problems: [ConfigProblem(file: path, line: 1, message: tr("cannot read the file (\(ConfigLoader.reason(error)))"))])
            }
        } else {
            text = ""
        }
        let layout = TOMLLayout(text)
        guard let layout, let edited = addingString(value, toArray: key, inTable: table, layout: layout) else {
            throw ManualEditNeeded(instruction: instruction(value, key: key, table: table, layout: layout))
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let (parsed, problems) = ConfigLoader.parse(edited, file: path, baseDirectory: base)
        var expected = original
        expected[keyPath: values].append(value)
        guard problems.isEmpty, parsed == expected else {
            throw ManualEditNeeded(instruction: instruction(value, key: key, table: table, layout: layout))
        }
        try replaceContents(of: path, with: edited)
        return .added
    }

    /// `text` with `value` added to the list `key` of `[table]`, or nil when
    /// its layout is not one this edit follows. The text is not validated.
    static func addingString(_ value: String, toArray key: String, inTable table: String, in text: String) -> String? {
        TOMLLayout(text).flatMap { addingString(value, toArray: key, inTable: table, layout: $0) }
    }

    private static func addingString(_ value: String, toArray key: String, inTable table: String,
                                     layout: TOMLLayout) -> String? {
        let bytes = layout.bytes
        let item = Array(quoted(value).utf8)
        let newline = Array((bytes.firstRange(of: [13, 10]) != nil ? "\r\n" : "\n").utf8)
        let keyLine = Array("\(key) = [".utf8) + item + Array("]".utf8) + newline
        guard let lines = layout.table([table]) else {
            var result = bytes
            if let last = result.last, last != UInt8(ascii: "\n") { result += newline }
            if !result.isEmpty { result += newline }
            return String(decoding: result + Array("[\(table)]".utf8) + newline + keyLine, as: UTF8.self)
        }
        let entry = lines.first { line in
            if case .keyValue(key: [key], value: _) = line.statement { return true } else { return false }
        }
        guard let entry else {
            // Right after the header line (a header on the file's last line has no newline yet).
            let header = lines[lines.startIndex].range
            var insertion = keyLine
            if bytes[header.upperBound - 1] != UInt8(ascii: "\n") { insertion = newline + insertion }
            return splice(bytes, [(header.upperBound, insertion)])
        }
        guard case .keyValue(_, let value) = entry.statement, bytes[value.lowerBound] == UInt8(ascii: "["),
              let parts = layout.arrayParts(at: value.lowerBound) else { return nil }
        return splice(bytes, arrayInsertions(item, into: parts, bytes: bytes, newline: newline))
    }

    /// Where and what to insert to add `item` to the array `parts`. A list
    /// whose `]` stands on its own line gets a new line in the indentation
    /// of its last element (and its trailing-comma habit); any other gets
    /// `, item` after its last element.
    private static func arrayInsertions(_ item: [UInt8], into parts: TOMLLayout.ArrayParts, bytes: [UInt8],
                                        newline: [UInt8]) -> [(Int, [UInt8])] {
        let closeLine = lineStart(of: parts.close, in: bytes)
        let blanks: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t")]
        let closeAlone = closeLine > parts.open && bytes[closeLine..<parts.close].allSatisfy(blanks.contains)
        guard closeAlone else {
            guard let last = parts.elements.last else { return [(parts.open + 1, item)] }
            if let comma = parts.trailingComma {
                return [(comma + 1, Array(" ".utf8) + item)]
            }
            return [(last.upperBound, Array(", ".utf8) + item)]
        }
        let closeIndent = Array(bytes[closeLine..<parts.close])
        guard let last = parts.elements.last else {
            return [(closeLine, closeIndent + Array("    ".utf8) + item + Array(",".utf8) + newline)]
        }
        let lastLine = lineStart(of: last.lowerBound, in: bytes)
        let indent = lastLine > parts.open
            ? Array(bytes[lastLine...].prefix(while: blanks.contains))
            : closeIndent + Array("    ".utf8)
        if parts.trailingComma != nil {
            return [(closeLine, indent + item + Array(",".utf8) + newline)]
        }
        return [(last.upperBound, Array(",".utf8)), (closeLine, indent + item + newline)]
    }

    /// The index of the first byte of the line holding `index`.
    private static func lineStart(of index: Int, in bytes: [UInt8]) -> Int {
        (bytes[..<index].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
    }

    /// `bytes` with each insertion made at its (original) offset.
    private static func splice(_ bytes: [UInt8], _ insertions: [(Int, [UInt8])]) -> String {
        var result = bytes
        for (offset, inserted) in insertions.sorted(by: { $0.0 > $1.0 }) {
            result.insert(contentsOf: inserted, at: offset)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What to add by hand, for the shape the file has.
    private static func instruction(_ value: String, key: String, table: String, layout: TOMLLayout?) -> String {
        let line = "\(key) = [\(quoted(value))]"
        guard let layout, let lines = layout.table([table]) else {
            return layout == nil ? tr("add \(quoted(value)) to \(key) under [\(table)] (or the line \(line) there)")
                                 : tr("add a [\(table)] table with the line \(line)")
        }
        let hasKey = lines.contains { line in
            if case .keyValue(key: [key], value: _) = line.statement { return true } else { return false }
        }
        return hasKey ? tr("add \(quoted(value)) to the \(key) list under [\(table)]") : tr("add the line \(line) under [\(table)]")
    }

    // MARK: - Setting a flag

    /// Sets the boolean `key` of `[table]` in the file at `path` to `value`
    /// (`deskdays enable|disable`), changing only that spot: the value of an
    /// existing `key = …` line, else a line right after the header, else a
    /// new `[table]` block. Returns false when the configuration already
    /// says so (the file is not touched). As `addString`, the edited text
    /// must parse to the old configuration changed by `change` alone, or
    /// `ManualEditNeeded` is thrown and nothing is written.
    public static func setFlag(_ value: Bool, key: String, inTable table: String, file path: String,
                               change: (inout Configuration) -> Void) throws -> Bool {
        let original = try ConfigLoader.load(path: path)
        var expected = original
        change(&expected)
        if expected == original { return false }
        let text = FileManager.default.fileExists(atPath: path) ? ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "") : ""
        let manual = ManualEditNeeded(instruction: tr("set \(key) = \(value ? "true" : "false") under [\(table)]"))
        guard let result = setting(value ? "true" : "false", key: key, inTable: [table], in: text) else { throw manual }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let (parsed, problems) = ConfigLoader.parse(result, file: path, baseDirectory: base)
        guard problems.isEmpty, parsed == expected else { throw manual }
        try replaceContents(of: path, with: result)
        return true
    }

    /// `text` with `key = value` in `[table]` (`setting(_:key:inTable:in:)`), or nil.
    public static func setting(_ value: Value, key: String, inTable table: [String], in text: String) -> String? {
        setting(value.literal, key: key, inTable: table, in: text)
    }

    /// `text` with `key = literal` in `[table]`, changing only that spot: the
    /// value of an existing `key = …` line, else a line right after the
    /// header, else a new `[table]` block; nil when its layout is not one this edit follows.
    private static func setting(_ literal: String, key: String, inTable table: [String], in text: String) -> String? {
        guard let layout = TOMLLayout(text) else { return nil }
        let bytes = layout.bytes
        let word = Array(literal.utf8)
        let newline = Array((bytes.firstRange(of: [13, 10]) != nil ? "\r\n" : "\n").utf8)
        let line = Array("\(key) = ".utf8) + word + newline
        var edited: [UInt8]
        if let lines = layout.table(table) {
            if let entry = lines.first(where: { if case .keyValue(key: [key], value: _) = $0.statement { return true } else { return false } }),
               case .keyValue(_, let range) = entry.statement {
                edited = bytes
                edited.replaceSubrange(range, with: word)
            } else {
                let header = lines[lines.startIndex].range
                var insertion = line
                if bytes[header.upperBound - 1] != UInt8(ascii: "\n") { insertion = newline + insertion }
                edited = bytes
                edited.insert(contentsOf: insertion, at: header.upperBound)
            }
        } else {
            edited = bytes
            if let last = edited.last, last != UInt8(ascii: "\n") { edited += newline }
            if !edited.isEmpty { edited += newline }
            edited += Array("[\(table.joined(separator: "."))]".utf8) + newline + line
        }
        return String(decoding: edited, as: UTF8.self)
    }

    // MARK: - Setting any key (the D-Bus interface's `Configure`)

    /// A value `set` writes: what a configuration key holds.
    public enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case strings([String])

        /// As TOML writes it.
        public var literal: String {
            switch self {
            case .string(let text): quoted(text)
            case .bool(let flag): flag ? "true" : "false"
            case .integer(let number): String(number)
            case .double(let number): number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)"
            case .strings(let texts): "[" + texts.map(quoted).joined(separator: ", ") + "]"
            }
        }

        /// As the TOML tree's JSON holds it.
        var json: Any {
            switch self {
            case .string(let text): text
            case .bool(let flag): flag
            case .integer(let number): number
            case .double(let number): number
            case .strings(let texts): texts
            }
        }
    }

    /// Sets `key` (dotted: `checkin.reminder_time`, `policy.target.value`) to
    /// `value` in the file at `path`, changing only that spot as `setFlag`
    /// does. The edited text must mean the old file with that one value set,
    /// and pass every check `config check` makes, or nothing is written: a
    /// problem throws `ConfigError` (the key unknown, the value refused), an
    /// edit this layout does not allow `ManualEditNeeded`. Returns false when
    /// the file says so already (it is not touched).
    public static func set(_ value: Value, key dotted: String, file path: String) throws -> Bool {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let bare = { (part: String) in !part.isEmpty && part.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard parts.count >= 2, parts.count <= 4, parts.allSatisfy(bare) else {
            throw ConfigError(problems: [ConfigProblem(file: path, line: 1,
                message: tr("\"\(dotted.prefix(60))\" is not a configuration key; write it as section.key (e.g. checkin.reminder_time)"))])
        }
        let (table, key) = (Array(parts.dropLast()), parts.last!)
        var text = ""
        if FileManager.default.fileExists(atPath: path) {
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ConfigError(problems: [ConfigProblem(file: path, line: 1, message: tr("cannot read the file (\(ConfigLoader.reason(error)))"))])
            }
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let (_, before) = ConfigLoader.parse(text, file: path, baseDirectory: base)
        guard before.isEmpty else { throw ConfigError(problems: before) }
        let manual = ManualEditNeeded(instruction: tr("set \(key) = \(value.literal) under [\(table.joined(separator: "."))]"))
        guard let old = tree(text) else { throw manual }
        var expected = old
        expected.set(value.json, at: parts)
        if NSDictionary(dictionary: expected).isEqual(to: old) { return false }
        guard let result = setting(value.literal, key: key, inTable: table, in: text),
              let edited = tree(result), NSDictionary(dictionary: edited).isEqual(to: expected) else { throw manual }
        let (_, problems) = ConfigLoader.parse(result, file: path, baseDirectory: base)
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        try replaceContents(of: path, with: result)
        return true
    }

    /// The TOML text as JSON values (a value type to change and compare).
    private static func tree(_ text: String) -> [String: Any]? {
        guard let table = try? TOMLTable(string: text),
              let object = try? JSONSerialization.jsonObject(with: Data(table.convert(to: .json).utf8)) else { return nil }
        return object as? [String: Any]
    }

    // MARK: - The policy as a whole (`setup`, `policy adopt`)

    /// `text` with its policy (`[policy]`, `[policy.*]` and `[[holidays]]`
    /// tables, each with the comment lines just above its header) replaced
    /// by `policy` (empty: removed), where the first of them was (else at the
    /// top, after the leading comments); every other byte stays. Nil when
    /// the policy is also written in a way this edit cannot see (dotted
    /// keys, inline tables), or the result does not read back as the same
    /// configuration with that policy.
    public static func replacingPolicy(in text: String, with policy: String, holidays: Bool = true) -> String? {
        guard let layout = TOMLLayout(text) else { return nil }
        // `holidays` false: the `[[holidays]]` list stays (setup does not ask for it).
        let replaced = holidays ? ["policy", "holidays"] : ["policy"]
        func isPolicy(_ key: [String]) -> Bool { key.first.map(replaced.contains) ?? false }
        var removed: [Range<Int>] = []
        var insertAt: Int?
        var inPolicy = false
        // Blank and comment lines inside a policy table: removed with it, unless
        // they come right before another table (whose they are).
        var pending: [Range<Int>] = []
        for (index, line) in layout.lines.enumerated() {
            switch line.statement {
            case .header(let key, _):
                if isPolicy(key) {
                    removed += pending
                    // The comments right above the header go with it.
                    var first = index
                    while first > 0, layout.lines[first - 1].statement == .trivia,
                          layout.bytes[layout.lines[first - 1].range].first(where: { $0 != 32 && $0 != 9 }) == UInt8(ascii: "#") {
                        first -= 1
                    }
                    let start = max(layout.lines[first].range.lowerBound, removed.last?.upperBound ?? 0)
                    insertAt = insertAt ?? start
                    removed.append(start..<line.range.upperBound)
                }
                pending = []
                inPolicy = isPolicy(key)
            case .keyValue(let key, _):
                if inPolicy {
                    removed += pending + [line.range]
                    pending = []
                } else if key.contains("policy") || isPolicy(key) {
                    // `policy.period = …` outside a policy table: not for this edit.
                    return nil
                }
            case .trivia:
                if inPolicy { pending.append(line.range) }
            }
        }
        removed += pending
        var bytes = layout.bytes
        for range in removed.reversed() where range.lowerBound < range.upperBound {
            bytes.removeSubrange(range.clamped(to: 0..<bytes.count))
            // One blank line where a table went, not two.
            let at = range.lowerBound
            while at >= 2, at < bytes.count, bytes[at] == 10, bytes[at - 1] == 10, bytes[at - 2] == 10 { bytes.remove(at: at) }
        }
        var block = Array(policy.utf8)
        if !block.isEmpty, block.last != UInt8(ascii: "\n") { block.append(UInt8(ascii: "\n")) }
        // Where the first policy table was, less what was removed before it (nothing: it is the first).
        var at = insertAt ?? {
            // After the leading comment lines.
            var end = 0
            for line in layout.lines {
                guard line.statement == .trivia, layout.bytes[line.range].first == UInt8(ascii: "#") else { break }
                end = line.range.upperBound
            }
            return end
        }()
        at = min(at, bytes.count)
        // After the file's leading comments, a blank line: they are not the policy's.
        if insertAt == nil, at > 0, !block.isEmpty { block.insert(UInt8(ascii: "\n"), at: 0) }
        if !block.isEmpty {
            if at > 0, bytes[at - 1] != UInt8(ascii: "\n") { block.insert(UInt8(ascii: "\n"), at: 0) }
            if at < bytes.count, bytes[at] != UInt8(ascii: "\n"), !block.reversed().starts(with: [10, 10]) { block.append(UInt8(ascii: "\n")) }
            bytes.insert(contentsOf: block, at: at)
        }
        let result = String(decoding: bytes, as: UTF8.self)
        // The same configuration but its policy: every other table alike.
        guard let before = tree(text), let after = tree(result), let wanted = tree(policy) else { return nil }
        let others = { (tree: [String: Any]) in tree.filter { !replaced.contains($0.key) } }
        let policyPart = { (tree: [String: Any]) in tree.filter { replaced.contains($0.key) } }
        guard NSDictionary(dictionary: others(before)).isEqual(to: others(after)),
              NSDictionary(dictionary: policyPart(after)).isEqual(to: wanted) else { return nil }
        return result
    }

    // MARK: - Writing

    /// Replaces the file at `path` (through a symbolic link, which stays)
    /// with `text`: a temporary file beside it, flushed, then renamed over
    /// it, so a crash leaves the old file or the new, never half of one. The
    /// file keeps its mode; a new one is 0600 in a folder created 0700.
    /// A file that began with a UTF-8 byte order mark keeps it.
    static func replaceContents(of path: String, with text: String) throws {
        let target = resolved(path)
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var info = stat()
        let mode = stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o600
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let old = FileManager.default.contents(atPath: target).map { Array($0.prefix(3)) } ?? []
        let bytes = Array(text.utf8)
        do {
            try AtomicFile.replace(target, with: old == mark && !bytes.starts(with: mark) ? mark + bytes : bytes,
                                   mode: UInt16(mode), durable: true)
        } catch {
            throw POSIXError(POSIXErrorCode(rawValue: error.rawValue) ?? .EIO)
        }
    }

    /// The file a path names, through symbolic links (the path itself when it does not exist yet).
    static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Why `setup` did not write the configuration, as one sentence.
    public struct WriteRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// `setup`'s write: `text` replaces the configuration at `path` through a
    /// symbolic link (which stays, as `enable`'s edits do), and the old
    /// contents are kept as a plain file `NAME.bak` beside `path` (never a
    /// link into the folder the link points to). A folder, a link, or a file
    /// another user owns at the backup's name is left alone and the
    /// configuration is not written. Returns the backup's path when one was
    /// kept. Every failure is one sentence (`WriteRefusal`).
    @discardableResult
    public static func replaceKeepingBackup(_ path: String, with text: String) throws(WriteRefusal) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw WriteRefusal(description: tr("cannot create the folder \(folder) (\(reason(error))); check that its parent is yours and writable."))
        }
        var backup: String?
        if let old = FileManager.default.contents(atPath: path) {
            let name = (folder.isEmpty ? "" : folder + "/") + (path as NSString).lastPathComponent + ".bak"
            var info = stat()
            if lstat(name, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFREG || info.st_uid != getuid() {
                    throw WriteRefusal(description: tr("\(name) is not a backup of yours (a folder, a link or another user's file); nothing was changed: move it away and run setup again."))
                }
            }
            do {
                try AtomicFile.replace(name, with: Array(old), mode: 0o600, durable: true)
            } catch {
                throw WriteRefusal(description: tr("cannot keep the old configuration as \(name) (\(AtomicFile.reason(error))); nothing was changed: check that \(folder) is yours and writable."))
            }
            backup = name
        }
        do {
            try replaceContents(of: path, with: text)
        } catch {
            throw WriteRefusal(description: tr("cannot write \(resolved(path)) (\(reason(error))); check that its folder is yours and writable."))
        }
        return backup
    }

    /// The system's words for a file error (no error domain, no dump).
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil { return String(cString: strerror(Int32(code))) }
        return String(cString: strerror(EIO))
    }

    /// Quotes `text` as a TOML basic string.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension Dictionary where Key == String, Value == Any {
    /// Sets the value at a dotted path, making the tables on the way.
    fileprivate mutating func set(_ value: Any, at path: [String]) {
        guard let first = path.first else { return }
        if path.count == 1 { self[first] = value; return }
        var inner = self[first] as? [String: Any] ?? [:]
        inner.set(value, at: Array(path.dropFirst()))
        self[first] = inner
    }
}
