import Foundation

/// A line of an inbox file in the sync folder (docs/cli.md "Sync", "Other
/// devices without DeskDays"): `TIME arrive|leave RULE`, TIME in RFC 3339
/// with its offset, written by a phone automation or a home server. Pure:
/// the line's text in, a check-in or why not out.
public struct InboxLine: Sendable, Equatable {
    public var time: Date
    public var kind: CheckInEvent.Kind
    public var rule: String

    public init(time: Date, kind: CheckInEvent.Kind, rule: String) {
        self.time = time
        self.kind = kind
        self.rule = rule
    }

    /// What one line holds.
    public enum Parsed: Sendable, Equatable {
        case checkIn(InboxLine)
        /// An empty line, or a comment (`#` first): nothing, and nothing wrong.
        case nothing
        /// Why the line is skipped, as `sync status` names it.
        case bad(String)
    }

    /// The longest line read (a check-in line is under 80 characters).
    public static let maximumBytes = 512

    /// Parses one line's text (no newline; a `\r` before it, surrounding
    /// spaces and tabs are dropped). The second word is case-insensitive;
    /// the rule is checked by `RuleName` only (the caller adds the
    /// configuration's own check, as `event --rule` does).
    public static func parse(_ text: String) -> Parsed {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first else { return .nothing }
        if first.hasPrefix("#") { return .nothing }
        guard words.count == 3 else {
            return .bad(tr("it is not `TIME arrive|leave RULE` (such as 2026-11-18T08:52:10+01:00 arrive hq)"))
        }
        guard let time = time(words[0]) else {
            return .bad(tr("its time \(words[0]) is not an RFC 3339 time with its offset (such as 2026-11-18T08:52:10+01:00)"))
        }
        let kind: CheckInEvent.Kind
        switch words[1].lowercased() {
        case "arrive": kind = .arrival
        case "leave": kind = .departure
        default: return .bad(tr("its second word \(words[1]) is neither arrive nor leave"))
        }
        let rule = String(words[2])
        if let problem = RuleName.problem(rule) { return .bad(tr("its rule: \(problem)")) }
        return .checkIn(InboxLine(time: time, kind: kind, rule: rule))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, exactly (`t`, `z` and a
    /// space for `T` too, as RFC 3339 allows); nil for anything else.
    /// Plain arithmetic on small bounded numbers: nothing can overflow.
    public static func time(_ text: Substring) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        func at(_ index: Int, _ allowed: String) -> Bool { index < bytes.count && allowed.utf8.contains(bytes[index]) }
        guard let year = number(0..<4), at(4, "-"), let month = number(5..<7), at(7, "-"), let day = number(8..<10),
              at(10, "Tt "), let hour = number(11..<13), at(13, ":"), let minute = number(14..<16), at(16, ":"),
              let second = number(17..<19), hour < 24, minute < 60, second < 60,
              let date = LocalDate(year: year, month: month, day: day) else { return nil }
        var index = 19
        var fraction = 0.0
        if at(index, ".") {
            index += 1
            let start = index
            var digits = 0, scale = 1.0
            while index < bytes.count, (48...57).contains(bytes[index]), index - start < 9 {
                digits = digits * 10 + Int(bytes[index] - 48)
                scale *= 10
                index += 1
            }
            guard index > start else { return nil }
            fraction = Double(digits) / scale
        }
        var offset = 0
        if at(index, "Zz") {
            index += 1
        } else if at(index, "+-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(index + 1..<index + 3), at(index + 3, ":"), let minutes = number(index + 4..<index + 6),
                  hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// An inbox file's bytes split into lines, in the file's encoding: UTF-8
    /// (a BOM dropped; a line that is not UTF-8 is read as Latin-1), or
    /// UTF-16 with its BOM (little- or big-endian). CRLF line ends are
    /// taken as LF. Bytes after the last newline are a line still being
    /// written: not among `lines`, and `complete` stops before them.
    public struct Text: Sendable {
        /// Each complete line's text (its index + 1 is its line number), or
        /// nil when it is too long or not text in the file's encoding.
        public var lines: [String?] = []
        /// Where each line starts in the file (bytes).
        public var starts: [Int] = []
        /// The bytes up to and including the last newline.
        public var complete = 0
        /// Whether bytes follow the last newline.
        public var torn: Bool { complete < size }
        public var size = 0

        public init() {}
    }

    public static func text(_ bytes: [UInt8]) -> Text {
        var text = Text()
        text.size = bytes.count
        let utf16: (bigEndian: Bool, bom: Int)? = bytes.starts(with: [0xFF, 0xFE]) ? (false, 2)
            : bytes.starts(with: [0xFE, 0xFF]) ? (true, 2) : nil
        if let utf16 {
            var start = utf16.bom, index = utf16.bom
            var units: [UInt16] = []
            while index + 1 < bytes.count {
                let unit = utf16.bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                    : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                index += 2
                if unit == 0x0A {
                    text.starts.append(start)
                    text.lines.append(units.count > maximumBytes ? nil : decodeUTF16(units))
                    units.removeAll(keepingCapacity: true)
                    start = index
                    text.complete = index
                } else if units.count <= maximumBytes {
                    units.append(unit)
                }
            }
            return text
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            text.starts.append(start)
            let line = bytes[start..<newline]
            if line.count > maximumBytes {
                text.lines.append(nil)
            } else if let utf8 = String(validating: line, as: UTF8.self) {
                text.lines.append(utf8)
            } else {
                // Latin-1: each byte is the code point of the same number.
                text.lines.append(String(String.UnicodeScalarView(line.map { Unicode.Scalar($0) })))
            }
            start = newline + 1
            text.complete = start
        }
        return text
    }

    private static func decodeUTF16(_ units: [UInt16]) -> String? {
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }
}
