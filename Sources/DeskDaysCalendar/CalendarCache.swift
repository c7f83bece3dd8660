import Files
import DeskDaysCore
import Foundation
import ICal

/// What each file of a calendar folder parsed to, kept between commands in
/// `$XDG_CACHE_HOME/deskdays/calendar-HASH.cache` (0600) and trusted only
/// for a file of the same name, inode, size and modification time (nanoseconds):
/// a command then reads the folder's listing and one `stat` per file
/// instead of parsing 5,000 files and expanding their rules
/// (docs/performance.md "Calendar"). Deleting it loses nothing; a cache
/// that does not read back whole is ignored. It holds what the files hold
/// (titles, dates), like the folder itself, and nothing of the database.
/// Its files are in the order the folder is read in (by name), so the two
/// are walked side by side (no table by name).
struct CalendarCache {
    /// A file as last parsed.
    struct Entry: Equatable {
        var name: String
        var inode: Int64
        var size: Int64
        var seconds: Int64
        var nanoseconds: Int64
        /// Its all-day events, or why it was skipped.
        var result: Result<[ICalendar.Event], ICalendar.Unreadable>
    }

    /// 5: files in `precedes` order, the reader checks it (4 was written from a table by name).
    static let magic = Array("DeskDays calendar cache 5\n".utf8)
    var entries: [Entry] = []

    /// The order of file names in the folder's reading and in the cache (String's).
    static func precedes(_ left: String, _ right: String) -> Bool { left < right }

    /// The cache file of a folder read with this horizon, under `cacheHome`.
    static func path(folder: String, horizon: LocalDate, cacheHome: String) -> String {
        // FNV-1a: a stable name per folder and horizon.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(folder)\n\(horizon.dayNumber)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return cacheHome + "/deskdays/calendar-" + String(hash, radix: 16) + ".cache"
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    static var cacheHome: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
    }

    // MARK: - Reading

    init() {}

    /// The cache at `path`, or an empty one when it is missing or not whole.
    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        entries = data.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            guard reader.take(Self.magic.count)?.elementsEqual(Self.magic) == true else { return nil }
            return reader.entries()
        } ?? []
    }

    /// Reads the file's bytes in place (valid only inside `Data.withUnsafeBytes`).
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func int() -> Int64? {
            take(8).map { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
        }

        mutating func string() -> String? {
            guard let length = int(), (0..<1 << 24).contains(length), let raw = take(Int(length)) else { return nil }
            return String(decoding: raw, as: UTF8.self)
        }

        /// The entries, or nil when the file is not whole or not in order.
        mutating func entries() -> [Entry]? {
            guard let count = int(), (0..<1 << 20).contains(count) else { return nil }
            var result: [Entry] = []
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let name = string(), !(result.last.map { CalendarCache.precedes(name, $0.name) } ?? false),
                      let inode = int(), let size = int(), let seconds = int(), let nanoseconds = int(),
                      let kind = int() else { return nil }
                if kind == 0 {
                    guard let reason = string() else { return nil }
                    result.append(Entry(name: name, inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds,
                                        result: .failure(ICalendar.Unreadable(reason: reason))))
                    continue
                }
                guard let events = int(), (0..<1 << 20).contains(events) else { return nil }
                var list: [ICalendar.Event] = []
                for _ in 0..<events {
                    guard let summary = string(), let uid = string(), let extra = int(), let categories = int(),
                          (0..<1 << 16).contains(categories) else { return nil }
                    var words: [String] = []
                    for _ in 0..<categories {
                        guard let word = string() else { return nil }
                        words.append(word)
                    }
                    guard let starts = int(), (0..<1 << 20).contains(starts), let raw = take(Int(starts) * 4) else { return nil }
                    let dates = (0..<Int(starts)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) }
                    list.append(ICalendar.Event(starts: dates, extraDays: Int(extra), summary: summary,
                                                 categories: words, uid: uid))
                }
                result.append(Entry(name: name, inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds,
                                    result: .success(list)))
            }
            return result
        }
    }

    // MARK: - Writing

    /// Writes the cache beside, then renames it into place (0600, its folder 0700).
    func write(to path: String) {
        var out = Self.magic
        func int(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ text: String) {
            int(Int64(text.utf8.count))
            out.append(contentsOf: text.utf8)
        }
        int(Int64(entries.count))
        for entry in entries {
            string(entry.name)
            int(entry.inode)
            int(entry.size)
            int(entry.seconds)
            int(entry.nanoseconds)
            switch entry.result {
            case .failure(let unreadable):
                int(0)
                string(unreadable.reason)
            case .success(let events):
                int(1)
                int(Int64(events.count))
                for event in events {
                    string(event.summary)
                    string(event.uid)
                    int(Int64(event.extraDays))
                    int(Int64(event.categories.count))
                    event.categories.forEach(string)
                    int(Int64(event.starts.count))
                    for day in event.starts {
                        withUnsafeBytes(of: day.littleEndian) { out.append(contentsOf: $0) }
                    }
                }
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // A cache: a failed write only means parsing again next time.
        try? AtomicFile.replace(path, with: out)
    }
}
