import DeskDaysCore
import Foundation
import Localization

/// One public holiday of a region: the `holidays` library's name in the
/// country's language, and its English name when the library has another.
public struct RegionHoliday: Sendable, Equatable {
    public let name: String
    public let englishName: String?

    public init(name: String, englishName: String?) {
        self.name = name
        self.englishName = englishName
    }
}

/// The public holidays shipped with DeskDays (`[policy] holidays_region`,
/// `deskdays holidays`): `data/holidays/holidays.tsv`, written by
/// tools/holidays/generate.py from the `holidays` library at the version it
/// names (its format is described there). Opening reads the header and its
/// index of country blocks; a region's holidays, every year, are read from
/// its country's block alone (a few KB of the file's 1.2 MB).
public struct HolidayData: Sendable {
    /// The `holidays` library's version the file came from.
    public let version: String
    public let years: ClosedRange<Int>
    /// Where it was read from.
    public let path: String
    /// Each country's block in the file, by its code.
    private let index: [String: Range<Int>]

    /// Reads the header of the file at `path`; nil when it cannot be read or is not one.
    public init?(path: String) {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        // The header ends with the index line; it is a few KB.
        var header: [UInt8] = []
        var body: Int?
        while body == nil, header.count < 1 << 20 {
            guard let chunk = try? file.read(upToCount: 16_384), !chunk.isEmpty else { break }
            header += chunk
            var start = 0
            while let end = header[start...].firstIndex(of: 10) {
                if header[start...].starts(with: "index\t".utf8) { body = end + 1; break }
                start = end + 1
            }
        }
        guard let body else { return nil }
        var version: String?, years: ClosedRange<Int>?, index: [String: Range<Int>] = [:]
        for line in header[..<body].split(separator: 10) {
            let fields = Self.fields(line)
            if fields.count == 2, fields[0] == "version" { version = fields[1] }
            if fields.count == 3, fields[0] == "years", let first = Int(fields[1]), let last = Int(fields[2]), first <= last {
                years = first...last
            }
            if fields.count == 2, fields[0] == "index" {
                for entry in fields[1].split(separator: " ") {
                    let parts = entry.split(separator: ":")
                    guard parts.count == 3, let offset = Int(parts[1]), let length = Int(parts[2]), offset >= 0, length >= 0 else { continue }
                    index[String(parts[0])] = (body + offset)..<(body + offset + length)
                }
            }
        }
        guard let version, let years, !index.isEmpty else { return nil }
        self.version = version
        self.years = years
        self.path = path
        self.index = index
    }

    private static func fields(_ line: ArraySlice<UInt8>) -> [String] {
        line.split(separator: 9, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A country's block: its subdivisions' codes and its lines (after the country's own).
    private func block(_ code: String) -> (subdivisions: [String], lines: ArraySlice<UInt8>)? {
        guard let range = index[code], let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard (try? file.seek(toOffset: UInt64(range.lowerBound))) != nil,
              let data = try? file.read(upToCount: range.count), data.count == range.count else { return nil }
        let bytes = [UInt8](data)
        let end = bytes.firstIndex(of: 10) ?? bytes.count
        let first = Self.fields(bytes[..<end])
        guard first.first == "=" + code else { return nil }
        return (Array(first.dropFirst()), bytes[min(end + 1, bytes.count)...])
    }

    /// The codes the data knows: every country, then each with its subdivisions ("DE", "DE-BY").
    public var regions: [String] {
        index.keys.sorted().flatMap { code in [code] + (block(code)?.subdivisions ?? []).map { code + "-" + $0 } }
    }

    /// `text` as the data spells a region (upper case), if the data knows it.
    public func region(_ text: String) -> String? {
        let code = text.uppercased()
        let parts = code.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let country = block(String(parts[0])) else { return nil }
        return parts.count == 1 || country.subdivisions.contains(String(parts[1])) ? code : nil
    }

    /// Up to three known regions nearest an unknown one: the same country's
    /// subdivisions when the country is known, else the countries (and
    /// their subdivisions) nearest it, nearest first.
    public func suggestions(for text: String) -> [String] {
        let code = text.uppercased()
        let country = String(code.prefix { $0 != "-" })
        let known = block(country)
        let candidates = known.map { [country] + $0.subdivisions.map { country + "-" + $0 } } ?? regions
        let typed = Array(code)
        guard typed.count <= 12 else { return [] }
        let ranked = candidates.map { (AttendanceStatus.editDistance(typed, Array($0)), $0) }
            .filter { $0.0 <= 2 }.sorted { $0 < $1 }
        return ranked.prefix(3).map(\.1)
    }

    /// The public holidays of a region the data knows (`region(_:)`), every year it covers.
    public func holidays(region: String) -> [LocalDate: RegionHoliday] {
        let parts = region.split(separator: "-", maxSplits: 1)
        guard let code = parts.first.map(String.init), let country = block(code) else { return [:] }
        let own = parts.count == 2 ? region : nil
        var names: [RegionHoliday] = []
        var result: [LocalDate: RegionHoliday] = [:]
        var changes: [(year: Int, items: [ArraySlice<UInt8>])] = []
        for line in country.lines.split(separator: 10) {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false)
            if fields.count == 3, fields[0].elementsEqual("n".utf8) {
                let english = String(decoding: fields[2], as: UTF8.self)
                names.append(RegionHoliday(name: String(decoding: fields[1], as: UTF8.self), englishName: english.isEmpty ? nil : english))
            } else if fields.count == 3, let year = Self.number(fields[1]) {
                let items = fields[2].split(separator: 32)
                if fields[0].elementsEqual(code.utf8) {
                    for item in items { Self.apply(item, year: year, names: names, to: &result) }
                } else if let own, fields[0].elementsEqual(own.utf8) {
                    changes.append((year, Array(items)))
                }
            }
        }
        for change in changes {
            for item in change.items { Self.apply(item, year: change.year, names: names, to: &result) }
        }
        return result
    }

    /// One item of a year's line: `MMDD:N` or `+MMDD:N` sets a date, `-MMDD` removes it.
    private static func apply(_ item: ArraySlice<UInt8>, year: Int, names: [RegionHoliday], to result: inout [LocalDate: RegionHoliday]) {
        var item = item
        let sign = item.first
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { item = item.dropFirst() }
        guard item.count >= 4, let month = number(item.prefix(2)), let day = number(item.dropFirst(2).prefix(2)),
              let date = LocalDate(year: year, month: month, day: day) else { return }
        if sign == UInt8(ascii: "-") {
            result[date] = nil
        } else if item.count > 5, let index = number(item.dropFirst(5)), names.indices.contains(index) {
            result[date] = names[index]
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// The data DeskDays was installed with: `share/deskdays/holidays.tsv`
    /// beside the installation prefix (as the message catalogs), or, for a
    /// program built in a source tree (`SOURCE/.build/…`), that tree's
    /// `data/holidays/holidays.tsv`. Nil when neither is there.
    public static let installed: HolidayData? = candidates(executable: Localization.executablePath()).lazy.compactMap(HolidayData.init(path:)).first

    /// The paths `installed` tries, in order.
    public static func candidates(executable: String?) -> [String] {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return [] }
        var paths: [String] = []
        if let build = executable.range(of: "/.build/") {
            paths.append(executable[..<build.lowerBound] + "/data/holidays/holidays.tsv")
        }
        var directory = String(executable[..<slash])
        for _ in 0..<2 {
            guard let up = directory.lastIndex(of: "/") else { break }
            directory = String(directory[..<up])
            paths.append(directory + "/share/deskdays/holidays.tsv")
        }
        return paths
    }
}
