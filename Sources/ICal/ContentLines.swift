import Foundation

/// Where each event of an iCalendar text begins, and where its properties
/// are, by line number: libical keeps no line numbers, and an error or a
/// skipped event is named `FILE:LINE`. Only the content lines' names are
/// looked at (RFC 5545 3.1: lines end in CRLF or LF, a line starting with a
/// space or a tab continues the one before); libical reads the values.
struct ContentLines {
    /// One `BEGIN:VEVENT` … `END:VEVENT`.
    struct Event {
        /// The line of its `BEGIN:VEVENT`.
        var begin: Int
        /// The first line of each property name in it (upper case).
        var properties: [String: Int] = [:]

        /// The line of its first `name` property, else its `BEGIN:VEVENT`.
        func line(of name: String) -> Int { properties[name] ?? begin }
    }

    /// The events, in the order of the text.
    private(set) var events: [Event] = []
    /// The `BEGIN:VEVENT` line of an event that is never closed (the next
    /// event, `END:VCALENDAR` or the end of the text comes first).
    private(set) var unclosedEvent: Int?
    /// Another component never closed (a file cut short before its
    /// `END:VCALENDAR`): its name and the line of its BEGIN.
    private(set) var unclosed: (name: String, line: Int)?

    init(_ text: String) {
        var open: Event?
        var components: [(name: String, line: Int)] = []
        for (number, head, value) in Self.names(text) {
            if head == "BEGIN" {
                components.append((value, number))
            } else if head == "END", let index = components.lastIndex(where: { $0.name == value }) {
                if index < components.count - 1, unclosed == nil { unclosed = components[index + 1] }
                components.removeSubrange(index...)
            }
            if head == "BEGIN", value == "VEVENT" {
                if let open { unclosedEvent = open.begin; return }
                open = Event(begin: number)
            } else if head == "END", value == "VEVENT" {
                if let event = open { events.append(event) }
                open = nil
            } else if head == "END", value == "VCALENDAR", let open {
                unclosedEvent = open.begin
                return
            } else if open != nil, open?.properties[head] == nil {
                open?.properties[head] = number
            }
        }
        unclosedEvent = open?.begin
        if unclosed == nil { unclosed = components.last }
    }

    /// Each content line's first line number, its name in upper case and,
    /// for BEGIN and END, the component's name in upper case. Read as bytes:
    /// names are ASCII (RFC 5545 3.1), a fold is a line break then one space
    /// or tab, and only a line's first 64 bytes are looked at (its name, and
    /// for BEGIN or END the component's).
    static func names(_ text: String) -> [(Int, String, String)] {
        var result: [(Int, String, String)] = []
        var number = 0
        // The content line being read: its first line's number and first bytes.
        var current: (number: Int, bytes: [UInt8])?
        func finish() {
            guard let (number, bytes) = current else { return }
            let end = bytes.firstIndex { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") } ?? bytes.endIndex
            let head = upper(bytes[..<end])
            guard head == "BEGIN" || head == "END", let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
                result.append((number, head, ""))
                return
            }
            var value = bytes[(colon + 1)...]
            while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
            while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
            result.append((number, head, upper(value)))
        }
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = raw[...]
            if line.last == 13 { line = line.dropLast() }
            if let first = line.first, first == 32 || first == 9 {
                // Only a BEGIN or END line is read past its name: a continuation matters there alone.
                if current != nil, current!.bytes.count < 64 { current!.bytes += line.dropFirst().prefix(64) }
            } else if !line.isEmpty {
                finish()
                current = (number, Array(line.prefix(64)))
            }
        }
        finish()
        return result
    }

    /// ASCII letters in upper case (other bytes as they are), as text.
    private static func upper(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}

extension ICalendar {
    /// An iCalendar file's bytes as text. RFC 5545 folds lines at 75
    /// octets, and exporters that count octets (Outlook, Google) fold in the
    /// middle of a multi-octet UTF-8 character; the RFC asks readers to
    /// restore it. Such a fold's continuation bytes are moved before it (the
    /// fold stays where it was, so every line keeps its number), then the
    /// bytes are read as UTF-8; nil when they are not UTF-8 even so.
    public static func text(of data: Data) -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            // A fold: CRLF or LF, then a space or a tab.
            let lf = bytes[index] == 13 ? index + 1 : index
            if bytes[index] == 13 || bytes[index] == 10, lf + 1 < bytes.count, bytes[lf] == 10,
               bytes[lf + 1] == 32 || bytes[lf + 1] == 9, case let missing = missingContinuations(out), missing > 0 {
                var next = lf + 2, moved = 0
                while moved < missing, next < bytes.count, bytes[next] & 0xC0 == 0x80 {
                    out.append(bytes[next])
                    next += 1
                    moved += 1
                }
                out.append(contentsOf: bytes[index...(lf + 1)])
                index = next
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return String(data: Data(out), encoding: .utf8)
    }

    /// How many continuation bytes the UTF-8 character at the end of `bytes` still lacks.
    static func missingContinuations(_ bytes: [UInt8]) -> Int {
        var trailing = 0
        for byte in bytes.reversed().prefix(4) {
            guard byte & 0xC0 == 0x80 else {
                let length = byte & 0xE0 == 0xC0 ? 2 : byte & 0xF0 == 0xE0 ? 3 : byte & 0xF8 == 0xF0 ? 4 : 1
                return max(0, length - 1 - trailing)
            }
            trailing += 1
        }
        return 0
    }
}
