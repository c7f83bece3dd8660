import DeskDaysConfig
import DeskDaysCore
import Foundation

/// The `[calendar]` folder: a vdir, one `.ics` file per event (vdirsyncer,
/// khal, Evolution), read afresh for each answer and never copied into the
/// database (docs/cli.md "Calendar"; docs/design.md).
public enum CalendarFolder {
    /// The earliest date read (Validation's range starts here).
    static let firstDate = LocalDate(year: 1990, month: 1, day: 1)!

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
    public static func read(_ settings: CalendarSettings, horizon: LocalDate) -> Reading {
        let folder = settings.folder
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            return Reading(days: CalendarDays(), problems: [
                tr("calendar: the folder \(folder) cannot be read (\(ConfigLoader.reason(error))); the calendar counts for nothing until it can"),
            ])
        }
        var events: [CalendarDays.Event] = []
        var problems: [String] = []
        for name in names.sorted() where name.lowercased().hasSuffix(".ics") && !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                problems.append(tr("calendar: \(path) cannot be read as UTF-8 text; skipped"))
                continue
            }
            let found: [ICalEvents.Event]
            do {
                found = try ICalEvents.events(in: text, from: firstDate, horizon: horizon)
            } catch {
                problems.append(tr("calendar: \(path) is skipped: \(error.reason)"))
                continue
            }
            for event in found where !CalendarWriter.owns(uid: event.uid) {
                guard let meaning = meaning(of: event, settings) else { continue }
                for date in event.dates {
                    events.append(CalendarDays.Event(date: date, meaning: meaning, summary: event.summary, file: name))
                }
            }
        }
        return Reading(days: CalendarDays(events), problems: problems)
    }

    /// The greatest meaning its SUMMARY or a CATEGORIES value names.
    static func meaning(of event: ICalEvents.Event, _ settings: CalendarSettings) -> CalendarDays.Meaning? {
        ([event.summary] + event.categories).compactMap(settings.meaning(of:)).max()
    }
}
