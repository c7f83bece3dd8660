// libFuzzer entry point over the CSV import (Exchange.parseImport as a CSV,
// EmployerExport.parse as `reconcile` reads it), built with
// DeskDaysExchange by fuzz/csv.sh. Any text must give rows or an
// ImportError naming a line of the text, never a trap; every skipped row
// is named by a line too.
import DeskDaysCore
import DeskDaysExchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    func check(_ line: Int?) {
        if let line { precondition((1...lines).contains(line), "line \(line) is not in the text") }
    }
    // As an import: a leading `[` or BEGIN:VCALENDAR would choose JSON or
    // iCalendar, so the text goes in behind a header line as well.
    for candidate in [text, "date,status,note\n" + text] {
        do {
            let imported = try Exchange.parseImport(candidate, file: "f.csv", horizon: LocalDate(year: 2100, month: 12, day: 31)!)
            for row in imported.skipped { check(row.line.map { candidate == text ? $0 : $0 - 1 }) }
            precondition(imported.records.allSatisfy(\.date.isSupported), "a date outside the supported range")
        } catch {
            check(error.line.map { candidate == text ? $0 : Swift.max(1, $0 - 1) })
        }
    }
    do {
        let export = try EmployerExport.parse(text, file: "hr.csv", dateColumn: nil, policy: Policy())
        precondition(export.rows.values.allSatisfy { $0 > 0 } && export.rows.keys.allSatisfy(\.isSupported))
    } catch {
        check(error.line)
    }
    return 0
}
