import Foundation
import Spawn

/// The project's message catalogs, compiled for a test (docs/testing.md,
/// "Languages"): `po/LANG.po` through `msgfmt` into a private folder that a
/// child process is pointed at with `DESKDAYS_LOCALEDIR`, and a pseudo-locale
/// made from the template, in which every message is wrapped in ⟦ ⟧.
public enum Catalogs {
    /// The repository's `po/` folder.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("po")

    /// The pseudo-locale's name (not a real language).
    public static let pseudo = "qps"
    public static let open = "⟦", close = "⟧"

    /// Whether msgfmt is installed (Debian's gettext).
    public static var available: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/msgfmt") }
    }

    /// The languages with a catalog in po/.
    public static var languages: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }.sorted()
    }

    /// A new folder holding `languages` compiled (and the pseudo-locale when asked).
    public static func compiled(_ languages: [String], pseudo withPseudo: Bool = false) async throws -> URL {
        let directory = try folderFor(pseudo: withPseudo)
        for language in languages {
            try await msgfmt(folder.appendingPathComponent(language + ".po"), into: directory, language: language)
        }
        if withPseudo {
            try await msgfmt(directory.appendingPathComponent("pseudo.po"), into: directory, language: pseudo)
        }
        return directory
    }

    /// A new folder, with the pseudo-locale's source written when asked.
    static func folderFor(pseudo withPseudo: Bool) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-locale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if withPseudo {
            try pseudoCatalog().write(to: directory.appendingPathComponent("pseudo.po"), atomically: true, encoding: .utf8)
        }
        return directory
    }

    static func msgfmt(_ source: URL, into directory: URL, language: String) async throws {
        let target = directory.appendingPathComponent("\(language)/LC_MESSAGES")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let result = try await Program.run("msgfmt", ["--check", "-o", target.appendingPathComponent("deskdays.mo").path, source.path])
        guard result.status == 0, !result.terminatedBySignal else {
            throw CatalogError(message: "msgfmt failed on \(source.path): \(result.stderr)")
        }
    }

    /// The template with every message translated as ⟦message⟧ (both plural forms).
    public static func pseudoCatalog() throws -> String {
        let template = try String(contentsOf: folder.appendingPathComponent("deskdays.pot"), encoding: .utf8)
        var out: [String] = []
        var msgid: [String] = [], plural: [String] = []
        var section = ""
        func flush() {
            guard section != "" else { return }
            let id = msgid.joined(), many = plural.joined()
            if id.isEmpty {
                out.append("""
                msgid ""
                msgstr ""
                "Project-Id-Version: deskdays\\n"
                "PO-Revision-Date: 2026-01-01 00:00+0000\\n"
                "Last-Translator: the tests\\n"
                "Language-Team: none\\n"
                "Language: \(pseudo)\\n"
                "MIME-Version: 1.0\\n"
                "Content-Type: text/plain; charset=UTF-8\\n"
                "Content-Transfer-Encoding: 8bit\\n"
                "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

                """)
            } else if plural.isEmpty {
                out.append("msgid \"\(id)\"\nmsgstr \"\(wrap(id))\"\n")
            } else {
                out.append("msgid \"\(id)\"\nmsgid_plural \"\(many)\"\nmsgstr[0] \"\(wrap(id))\"\nmsgstr[1] \"\(wrap(many))\"\n")
            }
            msgid = []; plural = []; section = ""
        }
        for line in template.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid_plural ") {
                section = "plural"; plural.append(quoted(line.dropFirst(13)))
            } else if line.hasPrefix("msgid ") {
                flush(); section = "id"; msgid.append(quoted(line.dropFirst(6)))
            } else if line.hasPrefix("msgstr") {
                section = section == "" ? "" : section + "-done"
            } else if line.hasPrefix("\"") {
                if section == "id" { msgid.append(quoted(line[...])) }
                if section == "plural" { plural.append(quoted(line[...])) }
            } else if line.isEmpty || line.hasPrefix("#") {
                if section.hasSuffix("-done") { flush() }
            }
        }
        if section.hasSuffix("-done") { flush() }
        return out.joined(separator: "\n")
    }

    /// Each literal part of a message in marks, its placeholders outside:
    /// "Removed {0}." → "⟦Removed ⟧{0}⟦.⟧", so that an English value filled
    /// into a translated message (a word that escaped gettext) shows too.
    static func wrap(_ message: String) -> String {
        var out = ""
        var rest = Substring(message)
        while let range = rest.range(of: #"\{[0-9]+\}"#, options: .regularExpression) {
            if range.lowerBound > rest.startIndex { out += open + rest[..<range.lowerBound] + close }
            out += rest[range]
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { out += open + rest + close }
        return out.isEmpty ? open + close : out
    }

    /// The inside of a PO string line, escapes kept.
    static func quoted(_ line: Substring) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return String(trimmed.dropFirst().dropLast())
    }

    static let contractWords = [
        #"(?m)^deskdays: "#,
        #"\b(nfc|qr|wifi|gps|wired|manual|import|fallback|external|libnfc|pcsc)\b"#,
        #"\b(mon|tue|wed|thu|fri|sat|sun)\b"#,
        // strerror(3) in the C locale, filled into our sentences.
        #"No such file or directory|Permission denied|Not a directory|No such device"#,
        // swift-argument-parser's own errors (it has no catalog).
        #"The value '[^']*' is invalid for '[^']*'\. Please provide one of the following:[^.]*\."#,
        // Its frame around our own sentence (`--status`: "did you mean office?"), the value as typed after it.
        #"The value '[^']*' is invalid for '[^']*': [^.⟦]*"#,
        #"Unknown option '[^']*'\.?"#,
    ]

    /// What is left of `text` once every ⟦…⟧ (nested or not) is taken out.
    public static func unwrapped(_ text: String) -> String {
        var result = ""
        var depth = 0
        for character in text {
            if String(character) == open { depth += 1; continue }
            if String(character) == close { depth = max(0, depth - 1); continue }
            if depth == 0 { result.append(character) }
        }
        return result
    }

    /// English left unwrapped in `text`: what remains of each line, once
    /// everything inside the marks is taken out (a message may span lines,
    /// as wrapped help does), that holds two words of two letters or more in a row.
    /// `ignoring`: patterns taken out first (text a library writes).
    /// Values filled into a message stand outside the marks; the words the
    /// contract fixes and never translates (the `deskdays:` prefix, source
    /// kinds, weekday keys, backends) and the system's and
    /// swift-argument-parser's own sentences are taken out too.
    public static func untranslated(_ text: String, ignoring: [String] = []) -> [String] {
        var rest = unwrapped(text)
        for pattern in ignoring + contractWords {
            rest = rest.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return rest.split(separator: "\n").map(String.init).filter { line in
            line.range(of: "[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}", options: .regularExpression) != nil
        }
    }
}

public struct CatalogError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension Catalogs {
    /// `text` with its figures in the digits 0–9 and no bidi isolates (U+2066–U+2069):
    /// Arabic output compared with what a test knows in ISO form.
    public static func plainFigures(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(0x2066...0x2069).contains(scalar.value) {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue, let digit = Int(exactly: value),
               let ascii = Unicode.Scalar(48 + digit) {
                scalars.append(ascii)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
