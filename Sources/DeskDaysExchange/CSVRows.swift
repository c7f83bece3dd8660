import Localization
import DeskDaysCore

/// The rows of a CSV text (RFC 4180, comma-separated), each with the line
/// it starts on, for `import` and `reconcile`.
///
/// Our own reader rather than CSV.swift's: that one takes an unterminated
/// quote as a field running to the end of the file (the rest of the file
/// silently becomes one cell) and cannot say on which line a row starts
/// once a quoted field holds a newline. Here a quote that is never closed,
/// or text after a closing quote, is an error naming its line.
enum CSVRows {
    struct Row: Equatable {
        /// The line the row starts on, from 1.
        var line: Int
        var fields: [String]
    }

    /// Why a text is not CSV, and the line where it shows.
    struct Malformed: Error, Equatable {
        enum Kind: Equatable { case unterminatedQuote, textAfterQuote }
        var line: Int
        var kind: Kind
    }

    /// Every row, empty lines included (as one empty field); a final line
    /// ending without a newline is a row too.
    static func parse(_ text: String) throws(Malformed) -> [Row] {
        var rows: [Row] = []
        try scan(text, malformed: { (error: Malformed) -> Malformed in error }) { (row: Row) throws(Malformed) in rows.append(row) }
        return rows
    }

    /// Each row in turn, as `parse` reads it, without holding the file's
    /// rows: a time clock's million rows pass through in a few megabytes.
    /// A text that is not CSV stops the scan with `malformed`'s error.
    static func scan<Failure: Error>(_ text: String, malformed: (Malformed) -> Failure,
                                     _ body: (Row) throws(Failure) -> Void) throws(Failure) {
        var text = text
        text.makeContiguousUTF8()
        let separator = delimiter(of: text)
        // The native string's own bytes (contiguous above), not a copy.
        let outcome: Result<Void, Failure>? = text.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(Failure) in try scan(bytes, separator: separator, malformed: malformed, body) }
        }
        try outcome!.get()
    }

    private static func scan<Failure: Error>(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8, malformed: (Malformed) -> Failure,
                                             _ body: (Row) throws(Failure) -> Void) throws(Failure) {
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, rowLine = 1
        var index = 0
        let count = bytes.count
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while index < count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // A quote opens a field only at its start; elsewhere it is text.
                guard field.isEmpty else { field.append(byte); continue }
                let opened = line
                var closed = false
                while index < count {
                    let inner = bytes[index]
                    index += 1
                    if inner == UInt8(ascii: "\"") {
                        if index < count, bytes[index] == UInt8(ascii: "\"") {
                            index += 1
                            field.append(inner)
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        if inner == UInt8(ascii: "\n") { line += 1 }
                        field.append(inner)
                    }
                }
                guard closed else { throw malformed(Malformed(line: opened, kind: .unterminatedQuote)) }
                if index < count, bytes[index] != separator, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    throw malformed(Malformed(line: line, kind: .textAfterQuote))
                }
            case separator:
                endField()
            case UInt8(ascii: "\r") where index < count && bytes[index] == UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\n"):
                endField()
                try body(Row(line: rowLine, fields: fields))
                fields.removeAll(keepingCapacity: true)
                line += 1
                rowLine = line
            default:
                field.append(byte)
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            endField()
            try body(Row(line: rowLine, fields: fields))
        }
    }

    /// Whether a row holds nothing but blanks (a spreadsheet's empty line).
    static func isBlank(_ row: Row) -> Bool { row.fields.allSatisfy { $0.trimmingBlanks.isEmpty } }
}

extension StringProtocol {
    /// The text without the blanks at either end: tabs and Unicode's space
    /// separators, as Foundation's `.whitespaces` (which cost a third of a
    /// million-row import).
    var trimmingBlanks: String {
        func blank(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar == " " || scalar == "\t" : scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return String(self) }
        return String(self[first...last])
    }
}

extension CSVRows {
    /// The field separator, read from the header line as spreadsheets write
    /// it: `;` (a German or French Excel), a tab, else `,` (docs/cli.md `import`).
    static func delimiter(of text: String) -> UInt8 {
        let header = text.utf8.prefix { $0 != UInt8(ascii: "\n") }
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for byte in header {
            if byte == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted { counts[byte, default: 0] += 1 }
        }
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
        return candidates.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }.flatMap { (counts[$0] ?? 0) > 0 ? $0 : nil } ?? UInt8(ascii: ",")
    }
}

extension CSVRows.Malformed {
    /// The error `import` and `reconcile` give for it: the file and line, and the fix.
    func importError(file: String) -> ImportError {
        switch kind {
        case .unterminatedQuote:
            ImportError(file: file, line: line, message: tr("the quote that opens a field on this line is never closed, so the rest of the file would be one field; close it or remove it"))
        case .textAfterQuote:
            ImportError(file: file, line: line, message: tr("text follows the closing quote of a field; inside a quoted field a quote is written twice (\"\")"))
        }
    }
}
