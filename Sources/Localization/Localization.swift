import CIntl
#if canImport(Glibc)
import Glibc
#endif

// Every sentence DeskDays shows a person goes through `tr` or `trn`, which
// look it up in the gettext catalog of the user's language (docs/cli.md,
// "Languages"). JSON, configuration keys, exit codes and log lines never do.
//
// A message is written as an ordinary Swift string with interpolations:
//
//     print(tr("Recorded \(date) as \(status)."))
//
// Its catalog key (msgid) is the literal text with each interpolation
// replaced by its position, `Recorded {0} as {1}.`; a translation may move
// the placeholders (`{1}: {0} gespeichert.`). `po/extract.py` finds the
// same keys in the sources and writes `po/deskdays.pot`, so only literals
// written directly inside `tr(…)`/`trn(…)` are translated.

/// A message: its catalog key and the values of its placeholders.
public struct Message: ExpressibleByStringInterpolation, Sendable {
    public let key: String
    public let arguments: [String]

    public init(stringLiteral value: String) {
        key = value
        arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        arguments = stringInterpolation.arguments
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var arguments: [String] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { key += literal }

        public mutating func appendInterpolation<T>(_ value: T) {
            key += "{\(arguments.count)}"
            arguments.append(Localization.isolated(String(describing: value)))
        }

        /// Text written in figures ("08:30", "3.5" as ICU wrote it): in the language's digits.
        public mutating func appendInterpolation(figures text: String) {
            key += "{\(arguments.count)}"
            arguments.append(Localization.figure(text))
        }

        /// A number, a date or a time: in the language's digits.
        public mutating func appendInterpolation<T: Figure>(_ value: T) {
            key += "{\(arguments.count)}"
            arguments.append(Localization.figure(value.figures))
        }
    }
}

/// The translation of `message` in the user's language (English when there is none).
public func tr(_ message: Message) -> String {
    Localization.fill(Localization.lookUp(message.key), message.arguments)
}

/// The translation of a message whose form depends on `count` ("1 day",
/// "2 days"; Arabic has six forms). The plural's interpolations number the
/// placeholders in both forms: write them in the same order.
public func trn(_ singular: Message, _ plural: Message, _ count: Int) -> String {
    Localization.setUpOnce()
    let n = UInt(clamping: count.magnitude)
    // gettext returns its own argument when there is no translation: a
    // pointer that is only valid inside `withCString`, so it is copied there.
    let text = singular.key.withCString { one in
        plural.key.withCString { many in
            dngettext(Localization.domain, one, many, n).map { $0 == one ? singular.key : $0 == many ? plural.key : String(cString: $0) }
        }
    } ?? (count == 1 ? singular.key : plural.key)
    return Localization.fill(text, plural.arguments.count >= singular.arguments.count ? plural.arguments : singular.arguments)
}

/// A value people read as figures (a count, a date, a time of day): in a
/// message, it is written in the language's digits and, in a right-to-left
/// language, isolated, so "من 2026-10-01" cannot read "01-10-2026".
public protocol Figure {
    /// The value in the digits 0–9, as in JSON ("2026-10-01", "08:30", "13").
    var figures: String { get }
}

extension Int: Figure { public var figures: String { String(self) } }
extension Int64: Figure { public var figures: String { String(self) } }
extension UInt: Figure { public var figures: String { String(self) } }
extension UInt64: Figure { public var figures: String { String(self) } }
extension Int32: Figure { public var figures: String { String(self) } }
extension UInt32: Figure { public var figures: String { String(self) } }

public enum Localization {
    /// The gettext domain: catalogs are `LANG/LC_MESSAGES/deskdays.mo`.
    public static let domain = "deskdays"

    static func lookUp(_ key: String) -> String {
        setUpOnce()
        // gettext returns its argument when there is no translation: a
        // pointer only valid inside `withCString` (a temporary copy for a
        // small or bridged string), so the answer is read there.
        return key.withCString { pointer in
            guard let translated = dgettext(domain, pointer), translated != pointer else { return key }
            return String(cString: translated)
        }
    }

    /// Replaces `{0}`, `{1}` … with `arguments`; any other brace is text.
    static func fill(_ text: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16 * arguments.count)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let index = Int(rest[afterOpen..<close]),
               arguments.indices.contains(index) {
                result += arguments[index]
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }

    // MARK: - Choosing the language and the catalogs

    /// Reads the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`)
    /// and binds the catalog folder, once per process, on the first message.
    ///
    /// Only `LC_MESSAGES` is set from the environment: dates and numbers
    /// come from `ReportLocale` (ICU, from `LC_TIME`/`LC_NUMERIC`), and
    /// leaving `LC_NUMERIC` at "C" keeps every C library's number parsing
    /// (TOML, NMEA, SQLite) independent of the user's decimal comma.
    static func setUpOnce() { _ = setUp }

    private static let setUp: Void = {
        let environment = asked
        let language = messageLocale(environment)
        let set = setlocale(LC_MESSAGES, "").map { String(cString: $0) } ?? ""
        if set.isEmpty || isNeutral(set) {
            // The locale is not installed (no `locale-gen`: nil), or the
            // program is static (the launcher), whose glibc answers "" and
            // reads no locale at all: messages are still read in the
            // language the variables ask for. glibc's gettext follows
            // `LANGUAGE` under any locale but "C", so C.UTF-8 plus that
            // language gives the same choice.
            if !isNeutral(language), setlocale(LC_MESSAGES, "C.UTF-8") != nil,
               (environment["LANGUAGE"] ?? "").isEmpty {
                setenv("LANGUAGE", language, 1)
            }
        }
        if let folder = catalogFolder(environment: environment, executable: executablePath()) {
            _ = bindtextdomain(domain, folder)
        }
        // Swift strings are UTF-8 whatever the locale's character set.
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }()

    /// The locale messages follow: `LC_ALL`, then `LC_MESSAGES`, then `LANG` ("C" when none is set).
    public static func messageLocale(_ environment: Environment) -> String {
        ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
    }

    static func isNeutral(_ locale: String) -> Bool {
        locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
    }

    /// The languages asked for, most wanted first, as catalog folder names
    /// ("de_DE.UTF-8" → "de_DE", "de"). `LANGUAGE` counts only when the
    /// message locale is not "C" (as in glibc), so `LC_ALL=C` is English.
    public static func languages(_ environment: Environment) -> [String] {
        let locale = messageLocale(environment)
        if locale == "C" || locale == "POSIX" { return [] }
        var names = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        if !isNeutral(locale) { names.append(locale) }
        var folders: [String] = []
        for name in names {
            let base = String(name.prefix { $0 != "." && $0 != "@" })
            let language = String(base.prefix { $0 != "_" })
            for candidate in [base, language] where !candidate.isEmpty && !folders.contains(candidate) {
                folders.append(candidate)
            }
        }
        return folders
    }

    /// Where the compiled catalogs are read from, in this order:
    /// `$DESKDAYS_LOCALEDIR`, then `share/locale` beside the installation
    /// prefix (`PREFIX/bin/deskdays`, `PREFIX/libexec/deskdays/deskdays-cli`,
    /// and `.build/debug/…` in a source tree, whose catalogs `make build`
    /// compiles into `.build/share/locale`), then the system's (nil: gettext's
    /// own default). The first folder holding a catalog for any wanted
    /// language is used, and in it the first wanted language that has one
    /// (as gettext reads `LANGUAGE`).
    public static func catalogFolder(environment: Environment, executable: String?) -> String? {
        catalog(environment: environment, executable: executable).folder
    }

    /// The folder `catalogFolder` picks and the language gettext will read
    /// there (nil when no wanted language has a catalog: English).
    public static func catalog(environment: Environment, executable: String?) -> (folder: String?, language: String?) {
        var folders: [String] = []
        if let own = environment["DESKDAYS_LOCALEDIR"], !own.isEmpty { folders.append(own) }
        if let executable, let slash = executable.lastIndex(of: "/") {
            var directory = String(executable[..<slash])
            for _ in 0..<2 {
                guard let up = directory.lastIndex(of: "/") else { break }
                directory = String(directory[..<up])
                folders.append(directory + "/share/locale")
            }
        }
        let wanted = languages(environment)
        for folder in folders + [systemFolder] {
            for language in wanted where access(folder + "/" + language + "/LC_MESSAGES/" + domain + ".mo", R_OK) == 0 {
                return (folder == systemFolder ? nil : folder, language)
            }
        }
        return (nil, nil)
    }

    /// Where gettext looks when no folder is bound (glibc's prefix).
    static let systemFolder = "/usr/share/locale"

    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What the messages, dates and numbers of human output depend on: an
    /// agent's text answer is used by a command only when both agree
    /// (`status`, `report`, the launcher's status-bar formats).
    public static var signature: String {
        // A loop, not `joined`: the launcher builds this on every request, and
        // the unspecialised generic costs it a scan of the program's conformances.
        var signature = ""
        for (index, name) in variables.enumerated() {
            if index > 0 { signature += ":" }
            signature += asked[name] ?? ""
        }
        return signature
    }

    static let variables = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_TIME", "LC_NUMERIC", "LANG", "DESKDAYS_LOCALEDIR"]

    /// The variables as the process started with them (set-up may set `LANGUAGE`).
    static let asked: Environment = {
        let values = variables.map { Environment.process[$0] }
        return Environment { name in variables.firstIndex(of: name).flatMap { values[$0] } }
    }()

    /// The environment, read through a function (tests pass a dictionary).
    public struct Environment: Sendable {
        let read: @Sendable (String) -> String?
        public init(_ read: @escaping @Sendable (String) -> String?) { self.read = read }
        public init(_ dictionary: [String: String]) { self.read = { dictionary[$0] } }
        public subscript(name: String) -> String? { read(name) }
        public static let process = Environment { name in getenv(name).map { String(cString: $0) } }
    }
}

extension Localization {
    /// Sentences one after another: a space between two, none after a
    /// full-width stop ("。", "！", "？"), which holds its own space in
    /// Chinese and Japanese. Empty parts are left out.
    public static func sentences(_ parts: [String]) -> String {
        var text = ""
        for part in parts where !part.isEmpty {
            if let last = text.last, !"。！？".contains(last) { text += " " }
            text += part
        }
        return text
    }

    /// How many terminal columns `text` takes: East Asian wide and
    /// full-width characters take two, combining marks none (what wcwidth(3)
    /// says, without needing an LC_CTYPE locale). Tables and the calendar pad by it.
    public static func displayWidth(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value)
                || (0x3041...0x33FF).contains(value) || (0x3400...0x4DBF).contains(value)
                || (0x4E00...0x9FFF).contains(value) || (0xA000...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x20000...0x3FFFD).contains(value)
            width += wide ? 2 : 1
        }
        return width
    }
}

// MARK: - Digits and direction

extension Localization {
    /// The digits of the messages' language, as its catalog writes
    /// "0123456789" (Arabic: ٠١٢٣٤٥٦٧٨٩); nil for 0–9. One digit system per
    /// language: every figure a person reads goes through `figures`.
    static let digits: [Unicode.Scalar]? = {
        // Translators write this message in their language's digits.
        let written = Array(tr("0123456789").unicodeScalars)
        guard written.count == 10, written.allSatisfy({ $0.properties.numericType == .decimal }),
              written.first != "0" else { return nil }
        return written
    }()

    /// Whether the messages' language is written right to left (the
    /// languages ICU's `characterDirection` calls so; ours is Arabic).
    public static let rightToLeft: Bool = {
        setUpOnce()
        guard let language = catalog(environment: asked, executable: executablePath()).language else { return false }
        return isRightToLeft(language)
    }()

    /// Whether `language` ("ar", "ar_EG", "he-IL") is written right to left.
    public static func isRightToLeft(_ language: String) -> Bool {
        let code = language.prefix { $0 != "-" && $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
        return ["ar", "he", "fa", "ur", "ps", "sd", "yi", "dv", "ug", "ckb", "iw"].contains(code)
    }

    /// `text` with every decimal digit (0–9, or another script's, as ICU
    /// wrote it) in the language's digits.
    public static func figures(_ text: String) -> String {
        guard let digits else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
               let digit = Int(exactly: value), digits.indices.contains(digit) {
                scalars.append(digits[digit])
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `text` with every decimal digit of any script (Arabic-Indic "٢",
    /// full-width "２") as 0–9: what a person types in the digits a prompt
    /// shows reads as the same figure.
    public static func latinDigits(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
               let digit = Int(exactly: value), (0...9).contains(digit) {
                scalars.append(Unicode.Scalar(UInt8(48 + digit)))
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `text` between U+2068 and U+2069 in a right-to-left language, so a
    /// date, a time, a number, a path or a command keeps its own direction
    /// inside the sentence (a browser reads them as `<bdi>` does); unchanged
    /// in a left-to-right language.
    public static func isolated(_ text: String) -> String {
        rightToLeft && !text.isEmpty && !isIsolate(text) ? "\u{2068}" + text + "\u{2069}" : text
    }

    /// Whether `text` is one isolate already (its first U+2068 closes at its end).
    static func isIsolate(_ text: String) -> Bool {
        guard text.unicodeScalars.first == "\u{2068}" else { return false }
        var depth = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if ("\u{2066}"..."\u{2068}").contains(scalar) { depth += 1 }
            if scalar == "\u{2069}" {
                depth -= 1
                if depth == 0 { return index == text.unicodeScalars.count - 1 }
            }
        }
        return false
    }

    /// A figure as people read it: in the language's digits, isolated.
    public static func figure(_ text: String) -> String { isolated(figures(text)) }
}
