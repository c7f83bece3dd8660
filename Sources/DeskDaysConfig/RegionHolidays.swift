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
/// names (its format is described there). Read as bytes: a region's
/// holidays, every year, are its country's block, found with `memmem`, so
/// a lookup reads the header and one block of the file's 1.2 MB.
public struct HolidayData: Sendable {
    /// The `holidays` library's version the file came from.
    public let version: String
    public let years: ClosedRange<Int>
    /// Where it was read from.
    public let path: String
    private let bytes: [UInt8]

    /// Reads the file at `path`; nil when it cannot be read or is not one.
    public init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(bytes: [UInt8](data), path: path)
    }

    init?(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
        var version: String?, years: ClosedRange<Int>?
        var start = 0
        // The header: the lines before the first country.
        while start < bytes.count, bytes[start] != UInt8(ascii: "=") {
            let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
            let fields = Self.fields(bytes[start..<end])
            if fields.count == 2, fields[0] == "version" { version = fields[1] }
            if fields.count == 3, fields[0] == "years", let first = Int(fields[1]), let last = Int(fields[2]), first <= last {
                years = first...last
            }
            start = end + 1
        }
        guard let version, let years, start < bytes.count else { return nil }
        self.version = version
        self.years = years
    }

    private static func fields(_ line: ArraySlice<UInt8>) -> [String] {
        line.split(separator: 9, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next country line at or after `from`: the index of its `=`
    /// (`memchr`: the byte starts only country lines).
    private func nextCountry(from: Int) -> Int? {
        bytes.withUnsafeBytes { buffer in
            var index = from
            while index < buffer.count, let hit = memchr(buffer.baseAddress! + index, Int32(UInt8(ascii: "=")), buffer.count - index) {
                let found = buffer.baseAddress!.distance(to: UnsafeRawPointer(hit))
                if found == 0 || buffer[found - 1] == 10 { return found }
                index = found + 1
            }
            return nil
        }
    }

    /// A country's block: its subdivisions' codes and the range of its lines.
    private func block(_ code: String) -> (subdivisions: [String], lines: Range<Int>)? {
        // Two ASCII capitals, as the file writes every country.
        guard code.utf8.count == 2, code.utf8.allSatisfy({ (65...90).contains($0) }) else { return nil }
        let wanted = Array(code.utf8)
        var from = 0
        while let found = nextCountry(from: from) {
            let after = found + 3
            from = found + 1
            guard after < bytes.count, bytes[found + 1] == wanted[0], bytes[found + 2] == wanted[1],
                  bytes[after] == 9 || bytes[after] == 10 else { continue }
            let end = bytes[after...].firstIndex(of: 10) ?? bytes.count
            let subdivisions = bytes[after] == 9 ? Self.fields(bytes[(after + 1)..<end]) : []
            let next = nextCountry(from: end) ?? bytes.count
            return (subdivisions, min(end + 1, next)..<next)
        }
        return nil
    }

    /// Every country's code, in the file's order.
    private var countryCodes: [String] {
        var codes: [String] = [], from = 0
        while let found = nextCountry(from: from) {
            let end = bytes[(found + 1)...].firstIndex { $0 == 9 || $0 == 10 } ?? bytes.count
            codes.append(String(decoding: bytes[(found + 1)..<end], as: UTF8.self))
            from = end
        }
        return codes
    }

    /// The codes the data knows: every country, then each with its subdivisions ("DE", "DE-BY").
    public var regions: [String] {
        countryCodes.flatMap { code in [code] + (block(code)?.subdivisions ?? []).map { code + "-" + $0 } }
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
        var start = country.lines.lowerBound
        while start < country.lines.upperBound {
            let end = bytes[start..<country.lines.upperBound].firstIndex(of: 10) ?? country.lines.upperBound
            let fields = bytes[start..<end].split(separator: 9, omittingEmptySubsequences: false)
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
            start = end + 1
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
