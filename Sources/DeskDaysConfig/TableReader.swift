import Localization
import DeskDaysCore
import Foundation
import TOMLKit

/// Reads typed values out of TOMLKit tables, turning every wrong type,
/// impossible value and unknown key into a located `ConfigProblem`.
struct TableReader {
    let file: String
    let locator: KeyLocator
    private(set) var problems: [ConfigProblem] = []

    init(file: String, locator: KeyLocator) {
        self.file = file
        self.locator = locator
    }

    mutating func problem(_ path: String, _ message: String) {
        problems.append(ConfigProblem(file: file, line: locator.line(of: path), message: message))
    }

    /// Visits every key of `table`; `visit` returns false for a key it does not know.
    /// `known`: the table's keys, to name the nearest of a misspelt one ("min_hour": "min_hours").
    mutating func read(_ table: TOMLTable, path: String, known: [String] = [],
                       _ visit: (inout TableReader, String, TOMLValueConvertible, String) -> Bool) {
        for key in table.keys.sorted(by: { locator.line(of: join(path, $0)) < locator.line(of: join(path, $1)) }) {
            guard let value = table[key] else { continue }
            let keyPath = join(path, key)
            if !visit(&self, key, value, keyPath) {
                let typed = Array(key)
                if let nearest = known.map({ ($0, AttendanceStatus.editDistance(typed, Array($0))) }).min(by: { $0.1 < $1.1 }),
                   nearest.1 <= 2 {
                    problem(keyPath, tr("unknown key \"\(key)\" in [\(path)]; did you mean \"\(nearest.0)\"?"))
                    continue
                }
                problem(keyPath, path.isEmpty ? tr("unknown key \"\(key)\"; check the spelling against the sample config")
                                       : tr("unknown key \"\(key)\" in [\(path)]; check the spelling against the sample config"))
            }
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    mutating func table(_ value: TOMLValueConvertible, _ path: String, _ body: (inout TableReader, TOMLTable) -> Void) {
        guard let table = value.table else {
            problem(path, tr("\(path) must be a table ([\(path)]), not a \(value.type)"))
            return
        }
        body(&self, table)
    }

    /// An array of tables (`[[path]]`), each visited with its indexed path.
    mutating func tables(_ value: TOMLValueConvertible, _ path: String,
                         _ body: (inout TableReader, TOMLTable, String) -> Void) {
        guard let array = value.array else {
            problem(path, tr("\(path) must be an array of tables ([[\(path)]])"))
            return
        }
        for index in 0..<array.count {
            let itemPath = "\(path)[\(index)]"
            guard let table = array[index].table else {
                problem(itemPath, tr("each entry of \(path) must be a table"))
                continue
            }
            body(&self, table, itemPath)
        }
    }

    mutating func string(_ value: TOMLValueConvertible, _ path: String) -> String? {
        guard let text = value.string else {
            problem(path, tr("\(key(path)) must be a string, not a \(describe(value))"))
            return nil
        }
        return text
    }

    mutating func strings(_ value: TOMLValueConvertible, _ path: String) -> [String]? {
        guard let array = value.array else {
            problem(path, tr("\(key(path)) must be an array of strings, not a \(describe(value))"))
            return nil
        }
        var result: [String] = []
        for index in 0..<array.count {
            guard let text = array[index].string else {
                problem(path, tr("\(key(path)) must contain only strings"))
                return nil
            }
            result.append(text)
        }
        return result
    }

    mutating func bool(_ value: TOMLValueConvertible, _ path: String) -> Bool? {
        guard let flag = value.bool else {
            problem(path, tr("\(key(path)) must be true or false, not a \(describe(value))"))
            return nil
        }
        return flag
    }

    mutating func int(_ value: TOMLValueConvertible, _ path: String, in range: ClosedRange<Int>, unit: String) -> Int? {
        guard let number = value.int else {
            problem(path, tr("\(key(path)) must be a whole number (\(unit)), not a \(describe(value))"))
            return nil
        }
        guard range.contains(number) else {
            outOfRange(path, "\(number)", range, unit: unit)
            return nil
        }
        return number
    }

    /// `number`, read at `path`, is not within `range` (of `unit`).
    mutating func outOfRange(_ path: String, _ number: String, _ range: ClosedRange<Int>, unit: String) {
        problem(path, range.upperBound == Int.max
                ? tr("\(key(path)) = \(number) is out of range; use at least \(range.lowerBound) (\(unit))")
                : tr("\(key(path)) = \(number) is out of range; use \(range.lowerBound) to \(range.upperBound) (\(unit))"))
    }

    mutating func number(_ value: TOMLValueConvertible, _ path: String) -> Double? {
        if let number = value.int { return Double(number) }
        if let number = value.double, number.isFinite { return number }
        problem(path, tr("\(key(path)) must be a number, not a \(describe(value))"))
        return nil
    }

    mutating func number(_ value: TOMLValueConvertible, _ path: String, in range: ClosedRange<Double>, unit: String) -> Double? {
        guard let number = number(value, path) else { return nil }
        guard range.contains(number) else {
            problem(path, tr("\(key(path)) = \(number) is out of range; use \(range.lowerBound) to \(range.upperBound) (\(unit))"))
            return nil
        }
        return number
    }

    /// A date written as a TOML local date or as a `"YYYY-MM-DD"` string.
    mutating func date(_ value: TOMLValueConvertible, _ path: String) -> LocalDate? {
        if let date = value.date {
            if let local = LocalDate(year: date.year, month: date.month, day: date.day) { return local }
        } else if let text = value.string, let local = LocalDate(text) {
            return local
        }
        problem(path, tr("\(key(path)) must be a date written YYYY-MM-DD (a real calendar date)"))
        return nil
    }

    /// `"HH:MM"` (or a TOML local time), or `"off"` for none.
    mutating func timeOfDay(_ value: TOMLValueConvertible, _ path: String, allowOff: Bool = true) -> TimeOfDay? {
        if let time = value.time, let result = TimeOfDay(hour: Int(time.hour), minute: Int(time.minute)) { return result }
        if let text = value.string {
            if text == "off", allowOff { return nil }
            if let result = TimeOfDay(text) { return result }
        }
        problem(path, allowOff ? tr("\(key(path)) must be a time of day written \"HH:MM\" (00:00 to 23:59), or \"off\"")
                                : tr("\(key(path)) must be a time of day written \"HH:MM\" (00:00 to 23:59)"))
        return nil
    }

    /// A closed choice (an enum of raw strings).
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ value: TOMLValueConvertible, _ path: String,
                                                                   _ apply: (Choice) -> Void) where Choice.RawValue == String {
        guard let text = string(value, path) else { return }
        guard let choice = Choice(rawValue: text) else {
            let options = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            problem(path, tr("\(key(path)) = \"\(text)\" is not one of \(options)"))
            return
        }
        apply(choice)
    }

    /// A rule's `name`, required and non-empty: it is what check-ins record.
    mutating func ruleName(_ name: String?, _ path: String) -> String? {
        guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(path, tr("every entry of \(path.split(separator: "[").first ?? "") needs a name (it is what check-ins record)"))
            return nil
        }
        return name
    }

    private func key(_ path: String) -> String { String(path.split(separator: ".").last ?? Substring(path)) }

    private func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .table: return tr("table")
        case .array: return tr("array")
        case .string: return tr("string")
        case .int: return tr("whole number")
        case .double: return tr("decimal number")
        case .bool: return tr("boolean")
        case .date: return tr("date")
        case .time: return tr("time")
        case .dateTime: return tr("date-time")
        }
    }
}
