import Files
import Localization
import DeskDaysConfig
import DeskDaysCore
import Foundation
import ICal

/// The `[calendar]` folder: a vdir, one `.ics` file per event (vdirsyncer,
/// khal, Evolution), read afresh for each answer and never copied into the
/// database (docs/cli.md "Calendar"; docs/design.md).
public enum CalendarFolder {
    /// The earliest date read (Validation's range starts here).
    static let firstDate = LocalDate.supported.lowerBound
    /// The largest file read (a whole calendar exported into one file is well under it).
    static let maxFileSize: Int64 = 16 * 1_048_576

    /// What the folder says and which files could not be used.
    public struct Reading: Sendable {
        public var days: CalendarDays
        /// One sentence per skipped file (it names the file).
        public var problems: [String]
    }

    /// Reads every `*.ics` file of the folder, expanding recurrences up to
    /// `horizon`. A missing folder is an empty calendar with one problem; a
    /// file that does not parse is skipped and named; DeskDays' own events
    /// (`write = true`) are skipped, since the manual record they copy counts already.
    public static func read(_ settings: CalendarSettings, horizon: LocalDate,
                            useCache: Bool = true) -> Reading {
        let cacheHome = useCache ? CalendarCache.cacheHome : nil
        let folder = settings.folder
        // A folder another user can write is not your calendar (as ssh judges a key file).
        if FileManager.default.fileExists(atPath: folder), let problem = PathCheck.trustProblem(folder) {
            return Reading(days: CalendarDays(), problems: [tr("calendar: the folder is not read: \(problem)")])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            return Reading(days: CalendarDays(), problems: [
                tr("calendar: the folder \(folder) cannot be read (\(ConfigLoader.reason(error))); the calendar counts for nothing until it can"),
            ])
        }
        let cachePath = cacheHome.map { CalendarCache.path(folder: folder, horizon: horizon, cacheHome: $0) }
        let cached = cachePath.map(CalendarCache.init(path:)) ?? CalendarCache()
        // The cache's entry for each file is found by walking both lists in the same order.
        var next = cached.entries.startIndex
        var fresh = CalendarCache()
        fresh.entries.reserveCapacity(names.count)
        // Rewritten when a file was parsed or one went away.
        var changed = false
        var sources: [CalendarDays.Source] = []
        var problems: [String] = []
        let low = Int32(firstDate.dayNumber), high = Int32(horizon.dayNumber)
        let words = settings.wordTable()
        // Each file's inode, size and time, relative to the folder (no path lookup from the root for each).
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if directory >= 0 { close(directory) } }
        for name in names.filter(isEventFile).sorted(by: CalendarCache.precedes) {
            var info = stat()
            guard directory >= 0, fstatat(directory, name, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let inode = Int64(bitPattern: UInt64(info.st_ino)), size = Int64(info.st_size), seconds = Int64(info.st_mtim.tv_sec), nanoseconds = Int64(info.st_mtim.tv_nsec)
            while next < cached.entries.endIndex, CalendarCache.precedes(cached.entries[next].name, name) { next += 1 }
            let result: Result<[ICalendar.Event], ICalendar.Unreadable>
            if next < cached.entries.endIndex, case let entry = cached.entries[next], entry.name == name, entry.inode == inode,
               entry.size == size, entry.seconds == seconds, entry.nanoseconds == nanoseconds {
                result = entry.result
            } else {
                // One event's file is a few kilobytes; a huge one is not read into memory.
                result = size > maxFileSize ? .failure(ICalendar.Unreadable(reason: tr("larger than \(maxFileSize / 1_048_576) MB")))
                    : parse(folder + "/" + name, horizon: horizon)
                changed = true
            }
            // A file that cannot be read is asked again next time: a chmod changes no mtime.
            if case .failure = result, access(folder + "/" + name, R_OK) != 0 {
                changed = true
            } else {
                fresh.entries.append(CalendarCache.Entry(name: name, inode: inode, size: size, seconds: seconds,
                                                         nanoseconds: nanoseconds, result: result))
            }
            switch result {
            case .failure(let unreadable):
                let path = folder + "/" + name
                problems.append(tr("calendar: \(path) is skipped: \(unreadable.reason)"))
            case .success(let events):
                for event in events where !CalendarWriter.owns(uid: event.uid) {
                    guard let meaning = meaning(of: event, words), event.extraDays >= 0, event.extraDays < 366 else { continue }
                    // Within the dates read (a cache is trusted for its shape, not its values).
                    let extra = Int32(event.extraDays)
                    let starts = event.starts.filter { $0 >= low - extra && $0 <= high }
                    guard !starts.isEmpty else { continue }
                    sources.append(CalendarDays.Source(file: name, summary: event.summary, meaning: meaning, starts: starts,
                                                       extraDays: Int32(event.extraDays)))
                }
            }
        }
        if let cachePath, changed || fresh.entries.count != cached.entries.count { fresh.write(to: cachePath) }
        return Reading(days: CalendarDays(sources), problems: problems)
    }

    /// One file's all-day events, or why it is skipped (its line, if any, in the reason: the cache keeps a sentence).
    /// The vdir uses neither an event's DESCRIPTION nor its line, so the cache keeps neither.
    static func parse(_ path: String, horizon: LocalDate) -> Result<[ICalendar.Event], ICalendar.Unreadable> {
        guard let data = FileManager.default.contents(atPath: path) else {
            // Said as it is (permissions, a file gone meanwhile), not taken for a text problem.
            let reason = access(path, R_OK) == 0 ? tr("it could not be read") : String(cString: strerror(errno))
            return .failure(ICalendar.Unreadable(reason: tr("cannot be read (\(reason))")))
        }
        guard let text = ICalendar.text(of: data) else {
            return .failure(ICalendar.Unreadable(reason: tr("not UTF-8 text")))
        }
        do {
            return .success(try ICalendar.read(text, from: firstDate, through: horizon).events.map { event in
                var kept = event
                kept.description = nil
                kept.line = 0
                return kept
            })
        } catch {
            return .failure(ICalendar.Unreadable(reason: error.description))
        }
    }

    /// A name ending in `.ics` (any case), not hidden.
    static func isEventFile(_ name: String) -> Bool {
        let suffix = name.utf8.suffix(4)
        return !name.hasPrefix(".") && suffix.count == 4
            && suffix.elementsEqual(".ics".utf8) { (0x41...0x5A).contains($0) ? $0 | 0x20 == $1 : $0 == $1 }
    }

    /// The greatest meaning its SUMMARY or a CATEGORIES value names.
    static func meaning(of event: ICalendar.Event, _ words: [String: CalendarDays.Meaning]) -> CalendarDays.Meaning? {
        var best = words[CalendarSettings.key(event.summary)]
        for category in event.categories {
            if let meaning = words[CalendarSettings.key(category)], best.map({ $0 < meaning }) ?? true { best = meaning }
        }
        return best
    }
}
