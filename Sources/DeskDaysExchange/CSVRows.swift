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
        let separator = delimiter(of: text)
        var rows: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, rowLine = 1
        var bytes = Array(text.utf8)[...]
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() {
            endField()
            rows.append(Row(line: rowLine, fields: fields))
            fields.removeAll(keepingCapacity: true)
        }
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "\""):
                // A quote opens a field only at its start; elsewhere it is text.
                guard field.isEmpty else { field.append(byte); continue }
                let opened = line
                var closed = false
                while let inner = bytes.popFirst() {
                    if inner == UInt8(ascii: "\"") {
                        if bytes.first == UInt8(ascii: "\"") {
                            bytes.removeFirst()
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
                guard closed else { throw Malformed(line: opened, kind: .unterminatedQuote) }
                if let next = bytes.first, next != separator, next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") {
                    throw Malformed(line: line, kind: .textAfterQuote)
                }
            case separator:
                endField()
            case UInt8(ascii: "\r") where bytes.first == UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\n"):
                endRow()
                line += 1
                rowLine = line
            default:
                field.append(byte)
            }
        }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
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
