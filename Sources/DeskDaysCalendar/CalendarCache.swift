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
struct CalendarCache {
    /// A file as last parsed.
    struct Entry: Equatable {
        var inode: Int64
        var size: Int64
        var seconds: Int64
        var nanoseconds: Int64
        /// Its all-day events, or why it was skipped.
        var result: Result<[ICalendar.Event], ICalendar.Unreadable>
    }

    /// 4: a file folded inside a character is read since (`ICalendar.text`); a 3 said "not UTF-8".
    static let magic = Array("DeskDays calendar cache 4\n".utf8)
    var entries: [String: Entry] = [:]

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
        var reader = Reader(bytes: [UInt8](data))
        guard reader.take(Self.magic.count).map(Array.init) == Self.magic, let read = reader.entries() else { return }
        entries = read
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, offset + count <= bytes.count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func int() -> Int64? {
            guard let raw = take(8) else { return nil }
            return raw.reversed().reduce(0) { $0 << 8 | Int64($1) }
        }

        mutating func string() -> String? {
            guard let length = int(), length < 1 << 24, let raw = take(Int(length)) else { return nil }
            return raw.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }

        mutating func entries() -> [String: Entry]? {
            guard let count = int(), count < 1 << 20 else { return nil }
            var result: [String: Entry] = [:]
            for _ in 0..<count {
                guard let name = string(), let inode = int(), let size = int(), let seconds = int(), let nanoseconds = int(),
                      let kind = int() else { return nil }
                if kind == 0 {
                    guard let reason = string() else { return nil }
                    result[name] = Entry(inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds,
                                         result: .failure(ICalendar.Unreadable(reason: reason)))
                    continue
                }
                guard let events = int(), events < 1 << 20 else { return nil }
                var list: [ICalendar.Event] = []
                for _ in 0..<events {
                    guard let summary = string(), let uid = string(), let extra = int(), let categories = int(),
                          categories < 1 << 16 else { return nil }
                    var words: [String] = []
                    for _ in 0..<categories {
                        guard let word = string() else { return nil }
                        words.append(word)
                    }
                    guard let starts = int(), starts < 1 << 20, let raw = take(Int(starts) * 4) else { return nil }
                    let dates = raw.withUnsafeBytes { bytes in
                        (0..<Int(starts)).map { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) }
                    }
                    list.append(ICalendar.Event(starts: dates, extraDays: Int(extra), summary: summary,
                                                 categories: words, uid: uid))
                }
                result[name] = Entry(inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds, result: .success(list))
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
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            string(name)
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
