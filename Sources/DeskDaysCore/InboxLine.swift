import Localization
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// An inbox file's bytes split into lines as they are read, a chunk at
    /// a time (memory stays bounded whatever the file holds), in the file's
    /// encoding: UTF-8 (a BOM dropped, at the start or at the start of any
    /// line; a line that is not UTF-8 is read as Latin-1), or UTF-16 with
    /// its BOM (little- or big-endian). A line ends at LF, CR or CRLF.
    /// Bytes after the last line end are a line still being written: not
    /// emitted, and `complete` stops before them. Blank lines (empty, or
    /// spaces and tabs only) are free: they get no `ordinal`, the number
    /// that identifies a line's content in its file, so no amount of them
    /// comes near a limit. Where it stopped (`state`) is saved beside the
    /// file's place, so that the next read goes on from there.
    public struct Splitter: Sendable {
        public enum Encoding: String, Sendable { case utf8, utf16LE = "utf16le", utf16BE = "utf16be" }

        /// A complete line: its number in the file (from 1), its ordinal
        /// among the file's lines that are not blank (nil: blank), where
        /// it starts (bytes), and its text (nil: too long, or not text in
        /// the file's encoding).
        public struct Line: Sendable, Equatable {
            public var number: Int
            public var ordinal: Int?
            public var start: Int
            public var text: String?
        }

        public private(set) var encoding: Encoding?
        /// Bytes fed so far (where the next chunk starts).
        public private(set) var offset = 0
        /// The bytes up to and including the last line end.
        public private(set) var complete = 0
        /// Complete lines so far, and those not blank.
        public private(set) var lines = 0
        public private(set) var ordinals = 0
        /// The last line ended with CR: an LF first is the rest of its end.
        private var afterCR = false
        /// The file's first bytes while its encoding is not known yet, or
        /// half of a UTF-16 unit.
        private var pending: [UInt8] = []
        private var units: [UInt16] = []
        private var length = 0
        private var start = 0

        public init() {}

        /// Where a read stopped, as `state` wrote it, `complete` bytes into
        /// the file; nil when `text` is not such a state.
        public init?(state text: String, complete: Int) {
            let words = text.split(separator: " ")
            guard words.count == 4, let encoding = Encoding(rawValue: String(words[0])), let lines = Int(words[1]),
                  let ordinals = Int(words[2]), words[3] == "0" || words[3] == "1", complete > 0, lines >= 0, ordinals >= 0
            else { return nil }
            self.encoding = encoding
            self.offset = complete
            self.complete = complete
            self.start = complete
            self.lines = lines
            self.ordinals = ordinals
            self.afterCR = words[3] == "1"
        }

        /// Where this read stands at `complete`, for `init(state:complete:)`.
        public var state: String { "\((encoding ?? .utf8).rawValue) \(lines) \(ordinals) \(afterCR ? 1 : 0)" }

        /// Whether bytes follow the last line end.
        public var torn: Bool { offset > complete }

        /// Feeds the file's next bytes; `emit` gets each line they complete.
        public mutating func feed<Bytes: Collection>(_ bytes: Bytes, _ emit: (Line) -> Void) where Bytes.Element == UInt8 {
            Array(bytes).withUnsafeBytes { feed($0, emit) }
        }

        public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Line) -> Void) {
            var index = 0
            while index < bytes.count {
                guard let encoding else {
                    pending.append(bytes[index])
                    offset += 1
                    index += 1
                    if pending.count == 3 { decide(emit) }
                    continue
                }
                switch encoding {
                case .utf8:
                    // The run of bytes up to the next line end at once (memchr):
                    // long lines and runs of blank lines cost little.
                    let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
                    let base = rest.baseAddress!
                    let newline = memchr(base, 0x0A, rest.count).map { UnsafeRawPointer($0) - base } ?? rest.count
                    let run = memchr(base, 0x0D, newline).map { UnsafeRawPointer($0) - base } ?? newline
                    if run > 0 {
                        if afterCR { afterCR = false }
                        if units.count <= maximumBytes {
                            units.append(contentsOf: rest[..<min(run, maximumBytes + 1 - units.count)].lazy.map { UInt16($0) })
                        }
                        length += run
                        offset += run
                        index += run
                    }
                    if index < bytes.count {
                        offset += 1
                        take(UInt16(bytes[index]), emit)
                        index += 1
                    }
                case .utf16LE, .utf16BE:
                    pending.append(bytes[index])
                    offset += 1
                    index += 1
                    guard pending.count == 2 else { continue }
                    let unit = encoding == .utf16BE ? UInt16(pending[0]) << 8 | UInt16(pending[1])
                        : UInt16(pending[1]) << 8 | UInt16(pending[0])
                    pending.removeAll(keepingCapacity: true)
                    take(unit, emit)
                }
            }
        }

        /// The end of what there is to read: a file shorter than its
        /// encoding's mark is UTF-8.
        public mutating func finish(_ emit: (Line) -> Void) {
            if encoding == nil { decide(emit) }
        }

        private mutating func decide(_ emit: (Line) -> Void) {
            let first = pending
            pending.removeAll()
            offset -= first.count
            if first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF]) {
                encoding = first[0] == 0xFF ? .utf16LE : .utf16BE
                offset += 2
                complete = 2
                start = 2
                feed(first.dropFirst(2), emit)
            } else {
                encoding = .utf8
                feed(first, emit)
            }
        }

        private mutating func take(_ unit: UInt16, _ emit: (Line) -> Void) {
            if afterCR {
                afterCR = false
                if unit == 0x0A {
                    complete = offset
                    start = offset
                    return
                }
            }
            guard unit == 0x0A || unit == 0x0D else {
                length += 1
                if units.count <= maximumBytes { units.append(unit) }
                return
            }
            lines += 1
            let text = length > maximumBytes ? nil : decode()
            let blank = text.map { $0.allSatisfy { $0 == " " || $0 == "\t" } } ?? false
            if !blank { ordinals += 1 }
            emit(Line(number: lines, ordinal: blank ? nil : ordinals, start: start, text: text))
            units.removeAll(keepingCapacity: true)
            length = 0
            complete = offset
            start = offset
            afterCR = unit == 0x0D
        }

        /// The line's text, its BOM dropped (a file appended to another).
        private func decode() -> String? {
            var text: String
            if encoding == .utf8 {
                let bytes = units.map { UInt8(truncatingIfNeeded: $0) }
                if let utf8 = String(validating: bytes, as: UTF8.self) {
                    text = utf8
                } else {
                    // Latin-1: each byte is the code point of the same number.
                    text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
                }
            } else {
                var scalars = String.UnicodeScalarView()
                var iterator = units.makeIterator()
                var decoder = UTF16()
                decoding: while true {
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): scalars.append(scalar)
                    case .emptyInput: break decoding
                    case .error: return nil
                    }
                }
                text = String(scalars)
            }
            while text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
            return text
        }
    }
}
