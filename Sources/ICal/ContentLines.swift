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
    /// for BEGIN and END, the component's name in upper case.
    static func names(_ text: String) -> [(Int, String, String)] {
        var lines: [(Int, String)] = []
        var number = 0
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(decoding: raw, as: UTF8.self)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if let first = line.first, first == " " || first == "\t" {
                // Only a BEGIN or END line is read past its name: a continuation matters there alone.
                if let last = lines.indices.last, lines[last].1.utf8.count < 64 { lines[last].1 += line.dropFirst().prefix(64) }
            } else if !line.isEmpty {
                lines.append((number, String(line.prefix(64))))
            }
        }
        return lines.map { number, line in
            let head = line.prefix { $0 != ";" && $0 != ":" }.uppercased()
            guard head == "BEGIN" || head == "END", let colon = line.firstIndex(of: ":") else { return (number, head, "") }
            return (number, head, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).uppercased())
        }
    }
}
