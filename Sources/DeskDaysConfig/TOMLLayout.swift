/// Where the parts of a TOML document sit in its text, so that `ConfigEditor`
/// can change one spot and leave every other byte (comments, order, blank
/// lines, quoting) as the user wrote it.
///
/// It reads just enough TOML not to be fooled: the four kinds of string
/// (with escapes), comments, and arrays or inline tables spanning lines; so a
/// `[qr]` inside a multi-line string is not a header, nor a `]` inside a
/// string the end of an array. It does not check values: the file has passed
/// the real loader before, and every edit is parsed again by it afterwards.
/// Works on UTF-8 bytes; every byte TOML's syntax uses is ASCII.
struct TOMLLayout {
    /// One statement at the top level of the document.
    enum Statement: Equatable {
        /// `[a.b]` (or `[[a.b]]` when `isArray`), the key's parts unquoted.
        case header(key: [String], isArray: Bool)
        /// `a.b = value`; `value` is the value's bytes (it may span lines).
        case keyValue(key: [String], value: Range<Int>)
        /// A blank or comment-only line.
        case trivia
    }

    /// A statement and where it is: from the first byte of its line to the
    /// end of its last line, after the newline when there is one.
    struct Line: Equatable {
        var statement: Statement
        var range: Range<Int>
    }

    /// Where an array's parts are.
    struct ArrayParts: Equatable {
        var open: Int
        var close: Int
        var elements: [Range<Int>]
        /// The comma after the last element, if any (`["a", "b",]`).
        var trailingComma: Int?
    }

    let bytes: [UInt8]
    let lines: [Line]

    /// Nil when the text is not TOML this reader follows (then nothing is edited).
    init?(_ text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let lines = scanner.statements() else { return nil }
        self.bytes = scanner.bytes
        self.lines = lines
    }

    /// The lines of the table `[key]`: its header first, then its statements
    /// up to the next header.
    func table(_ key: [String]) -> ArraySlice<Line>? {
        guard let start = lines.firstIndex(where: { $0.statement == .header(key: key, isArray: false) }) else { return nil }
        let end = lines[(start + 1)...].firstIndex {
            if case .header = $0.statement { return true } else { return false }
        } ?? lines.endIndex
        return lines[start..<end]
    }

    /// The parts of the array starting at `open` (a `[`), or nil when it is not an array.
    func arrayParts(at open: Int) -> ArrayParts? {
        var scanner = Scanner(bytes: bytes, position: open)
        return scanner.array()
    }
}

// MARK: - Scanning

/// The cursor over the bytes; each method moves past what it reads or
/// returns nil, leaving the position undefined, when the text is not as expected.
private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    private static let hash = UInt8(ascii: "#"), equals = UInt8(ascii: "="), dot = UInt8(ascii: ".")
    private static let comma = UInt8(ascii: ","), backslash = UInt8(ascii: "\\")
    private static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    func peek(_ offset: Int) -> UInt8? { position + offset < bytes.count ? bytes[position + offset] : nil }

    // MARK: Statements

    mutating func statements() -> [TOMLLayout.Line]? {
        var lines: [TOMLLayout.Line] = []
        while position < bytes.count {
            let start = position
            skipBlanks()
            let statement: TOMLLayout.Statement
            switch current {
            case nil, Self.newline?, Self.carriageReturn?, Self.hash?:
                statement = .trivia
            case Self.openBracket?:
                guard let header = header() else { return nil }
                statement = header
            default:
                guard let key = key(), current == Self.equals else { return nil }
                position += 1
                skipBlanks()
                let valueStart = position
                guard skipValue() else { return nil }
                statement = .keyValue(key: key, value: valueStart..<position)
            }
            // The rest of the line: blanks and a comment (or, after a date-time
            // value with a space in it, its time part, which nothing edits).
            while let byte = current, byte != Self.newline { position += 1 }
            if current == Self.newline { position += 1 }
            lines.append(TOMLLayout.Line(statement: statement, range: start..<position))
        }
        return lines
    }

    private mutating func header() -> TOMLLayout.Statement? {
        position += 1
        let isArray = current == Self.openBracket
        if isArray { position += 1 }
        skipBlanks()
        guard let key = key(), current == Self.closeBracket else { return nil }
        position += 1
        if isArray {
            guard current == Self.closeBracket else { return nil }
            position += 1
        }
        return .header(key: key, isArray: isArray)
    }

    /// A dotted key, each part unquoted; blanks after it skipped.
    private mutating func key() -> [String]? {
        var parts: [String] = []
        while true {
            skipBlanks()
            guard let part = keyPart() else { return nil }
            parts.append(part)
            skipBlanks()
            guard current == Self.dot else { return parts }
            position += 1
        }
    }

    private mutating func keyPart() -> String? {
        let start = position
        switch current {
        case Self.doubleQuote?, Self.singleQuote?:
            // A quoted key with escapes is kept raw: it never equals a plain
            // name, so the edit looks elsewhere or falls back to the user.
            guard skipString() else { return nil }
            return String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
        default:
            while let byte = current, Self.isBareKeyByte(byte) { position += 1 }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }
    }

    private static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    // MARK: Values

    /// Moves past one value: a string, an array, an inline table or a bare
    /// token (number, boolean, date).
    mutating func skipValue() -> Bool {
        switch current {
        case Self.doubleQuote?, Self.singleQuote?: return skipString()
        case Self.openBracket?: return array() != nil
        case Self.openBrace?: return skipInlineTable()
        default:
            let start = position
            while let byte = current, !Self.endsBareValue(byte) { position += 1 }
            return position > start
        }
    }

    private static func endsBareValue(_ byte: UInt8) -> Bool {
        [space, tab, newline, carriageReturn, comma, closeBracket, closeBrace, hash].contains(byte)
    }

    /// An array from its `[` to past its `]`, with where its elements are.
    mutating func array() -> TOMLLayout.ArrayParts? {
        let open = position
        position += 1
        var elements: [Range<Int>] = []
        var trailingComma: Int?
        while true {
            skipTrivia()
            if current == Self.closeBracket { break }
            let start = position
            guard skipValue() else { return nil }
            elements.append(start..<position)
            trailingComma = nil
            skipTrivia()
            if current == Self.comma {
                trailingComma = position
                position += 1
                continue
            }
            guard current == Self.closeBracket else { return nil }
            break
        }
        let close = position
        position += 1
        return TOMLLayout.ArrayParts(open: open, close: close, elements: elements, trailingComma: trailingComma)
    }

    /// An inline table, by balance: its contents are never edited.
    private mutating func skipInlineTable() -> Bool {
        position += 1
        while let byte = current {
            switch byte {
            case Self.closeBrace: position += 1; return true
            case Self.hash: skipComment()
            case Self.doubleQuote, Self.singleQuote, Self.openBracket, Self.openBrace:
                guard skipValue() else { return false }
            default: position += 1
            }
        }
        return false
    }

    /// A string at its opening quote: `"…"`/`"""…"""` (escapes honoured) or
    /// `'…'`/`'''…'''` (no escapes).
    private mutating func skipString() -> Bool {
        guard let quote = current else { return false }
        let escapes = quote == Self.doubleQuote
        let multiline = peek(1) == quote && peek(2) == quote
        position += multiline ? 3 : 1
        while let byte = current {
            if escapes && byte == Self.backslash {
                position += 2
            } else if byte == quote {
                if !multiline { position += 1; return true }
                if closesMultiline(quote) { return true }
                position += 1
            } else if byte == Self.newline && !multiline {
                return false
            } else {
                position += 1
            }
        }
        return false
    }

    /// At a run of quotes inside a multi-line string: three close it, and up
    /// to two more just before them belong to the content (`"""a""""`).
    private mutating func closesMultiline(_ quote: UInt8) -> Bool {
        var run = 0
        while peek(run) == quote { run += 1 }
        guard run >= 3 else { return false }
        position += min(run, 5)
        return true
    }

    // MARK: Blanks and comments

    mutating func skipBlanks() {
        while current == Self.space || current == Self.tab { position += 1 }
    }

    /// Blanks, newlines and comments (between array elements).
    private mutating func skipTrivia() {
        while let byte = current {
            switch byte {
            case Self.space, Self.tab, Self.newline, Self.carriageReturn: position += 1
            case Self.hash: skipComment()
            default: return
            }
        }
    }

    private mutating func skipComment() {
        while let byte = current, byte != Self.newline { position += 1 }
    }
}
