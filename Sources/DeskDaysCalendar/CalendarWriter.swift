import Files
import Localization
import DeskDaysConfig
import DeskDaysCore
import Foundation
import ICal

/// `[calendar] write = true`: each manual office record is one all-day
/// event file in the folder, `deskdays-office-DATE.ics`, with the UID
/// `deskdays-office-DATE@deskdays`; a file is removed when its record is
/// cleared. Only files of that name holding that UID are ever changed or
/// removed: DeskDays never touches a file it did not write.
public enum CalendarWriter {
    static let prefix = "deskdays-office-"

    /// The UID of the event for `date`.
    public static func uid(_ date: LocalDate) -> String { "\(prefix)\(date)@deskdays" }

    /// The file name of the event for `date`.
    public static func fileName(_ date: LocalDate) -> String { "\(prefix)\(date).ics" }

    /// Whether DeskDays wrote the event with this UID.
    public static func owns(uid: String) -> Bool { uid.hasPrefix(prefix) && uid.hasSuffix("@deskdays") }

    /// The dates whose latest manual record is office: the events `write = true` keeps.
    public static func manualOfficeDates(_ records: [DayRecord]) -> Set<LocalDate> {
        var office: Set<LocalDate> = []
        for (date, list) in Dictionary(grouping: records.filter { $0.origin == .manual }, by: \.date) {
            let latest = list.max { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
            if latest?.status == .office { office.insert(date) }
        }
        return office
    }

    /// What changed in the folder.
    public struct Changes: Sendable, Equatable {
        public var written: [LocalDate] = []
        public var removed: [LocalDate] = []
    }

    /// Makes DeskDays' own files match `officeDates` (the dates whose manual
    /// record is office): writes the missing, removes the rest. A failure
    /// is thrown as one sentence naming the file.
    public static func reconcile(_ settings: CalendarSettings, officeDates: Set<LocalDate>, now: Date) throws -> Changes {
        var changes = Changes()
        let folder = settings.folder
        if let problem = PathCheck.trustProblem(folder) {
            throw CalendarWriteError(message: tr("the calendar folder is not written: \(problem)"))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var present: Set<LocalDate> = []
        // A temporary of ours left by a writer that was killed mid-write
        // (`.deskdays-office-DATE.ics.PID.tmp`) goes once its process is gone.
        for name in names where name.hasPrefix("." + prefix) && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            if parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid > 0, kill(pid, 0) != 0, errno == ESRCH {
                _ = unlink(folder + "/" + name)
            }
        }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".ics") {
            guard let date = LocalDate(String(name.dropFirst(prefix.count).dropLast(4))) else { continue }
            let path = folder + "/" + name
            // Ours only if it still holds our UID (a file of that name from elsewhere is left alone).
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("UID:\(uid(date))") else { continue }
            if officeDates.contains(date) {
                present.insert(date)
            } else {
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw failure(path, errno)
                }
                changes.removed.append(date)
            }
        }
        let summary = settings.words[.office]?.first ?? "Office"
        for date in officeDates.subtracting(present).sorted() {
            let path = folder + "/" + fileName(date)
            // Never over a file DeskDays did not write.
            if FileManager.default.fileExists(atPath: path) { continue }
            let text = ICalendar.document([ICalendar.ExportedEvent(date: date, summary: summary, uid: uid(date))],
                                          productID: "-//DeskDays//DeskDays//EN", stamp: now)
            try write(text, to: path)
            changes.written.append(date)
        }
        return changes
    }

    static func failure(_ path: String, _ code: Int32) -> Error {
        CalendarWriteError(message: tr("cannot write the calendar file \(path) (\(String(cString: strerror(code)))); check the [calendar] folder's permissions"))
    }

    /// Writes beside, then renames into place (a reader never sees half a file).
    static func write(_ text: String, to path: String) throws {
        do {
            // 0600, as every file DeskDays writes: vdirsyncer, khal and the
            // like run as the same user and read it all the same.
            try AtomicFile.replace(path, with: text.utf8, mode: 0o600, durable: true)
        } catch {
            throw failure(path, error.rawValue)
        }
    }
}

/// A calendar file DeskDays could not write or remove.
public struct CalendarWriteError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
