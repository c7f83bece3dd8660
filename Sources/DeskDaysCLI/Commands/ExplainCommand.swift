import Localization
import CommandSupport
import ArgumentParser
import DeskDaysConfig
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import DeskDaysSync
import Foundation

/// `deskdays explain D`: why a date resolved as it did.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: tr("Show the records and check-ins behind a date's status."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("The date, YYYY-MM-DD.")))
    var date: String

    func run() async throws {
        let session = try Session(global)
        let day = try Session.date(date, option: "date")
        let store = try session.readStore()
        let span = DateSpan(day, day)
        let evidence = try session.evidence(span, store: store)
        let records = evidence.records, checkIns = evidence.checkIns
        let presence = evidence.presence[day]
        let resolved = evidence.resolved[day] ?? ResolvedDay(date: day, status: nil, origin: nil, sources: [])
        let policy = session.policy
        var lines: [String] = []
        let workday = policy.isWorkday(day)
        // Sentences in the user's language; the weekday and hours follow LC_TIME and LC_NUMERIC.
        let locale = session.reportLocale
        let weekday = Words.weekdayFull(day.weekday, locale: locale)
        // The date as the reader's locale writes it (ISO under C); `day` stays the value.
        let shown = locale.day(day)
        if let holiday = policy.holidays[day] {
            // Where it comes from: the region's data, an .ics, [[holidays]], or the calendar folder.
            switch session.configuration.holidaySources[day] {
            case .region(let region)?: lines.append(tr("\(shown) (\(weekday)) is a holiday (\(region): \(holiday), from the public holidays shipped with DeskDays)."))
            case .calendarFile(let file)?: lines.append(tr("\(shown) (\(weekday)) is a holiday (\(holiday), from \(Printable.escaped(file)))."))
            case .configuration?: lines.append(tr("\(shown) (\(weekday)) is a holiday (\(holiday), from [[holidays]] in the configuration)."))
            case nil: lines.append(tr("\(shown) (\(weekday)) is a holiday (\(holiday))."))
            }
        } else {
            lines.append(workday ? tr("\(shown) (\(weekday)) is a workday.") : tr("\(shown) (\(weekday)) is not a workday."))
        }
        if let status = resolved.status, resolved.origin == .calendar,
           let event = session.calendar.decidingEvent(on: day, today: session.today) {
            lines.append(tr("Resolved: \(Words.status(status)), from the calendar event \"\(Printable.escaped(event.summary))\" (\(Printable.escaped(event.file)))."))
        } else if let status = resolved.status, let origin = resolved.origin {
            lines.append(origin == .automatic ? tr("Resolved: \(Words.status(status)), from the automatic check-ins.")
                                              : tr("Resolved: \(Words.status(status)), from the \(Words.origin(origin)) record."))
        } else {
            lines.append(tr("Resolved: no status."))
        }
        // How it counts comes from the policy engine itself, the same call the report makes.
        let count = PolicyEngine(policy: policy).classify(day, status: resolved.status, today: session.today,
                                                          plan: resolved.origin == .calendar || resolved.plan != nil)
        let counts = Self.words(for: count, workday: workday, status: resolved.status, policy: policy)
        lines.append(tr("Counts: \(counts)."))
        lines.append(session.configuration.calendar == nil ? tr("Precedence: manual > automatic > imported > fallback.")
                     : tr("Precedence: manual > automatic > imported > calendar > fallback."))
        // Times in the policy's time zone, the one the date is counted in.
        // As the reader writes a date and time (RFC 3339 under C, as JSON has it).
        func local(_ instant: Date) -> String { locale.dateTime(instant, in: policy.timeZone) }
        // With sync, the device behind each entry (its journal line); its
        // name, like a note, may come from the folder: printed escaped.
        let journal = try store.syncIdentity() == nil ? [] : try store.journalLines(on: day)
        func from(_ matches: (JournalEntry) -> Bool) -> String {
            journal.last(where: { matches($0.entry) }).map { " " + tr("(from \(Printable.escaped($0.device)))") } ?? ""
        }
        let columns = Columns()
        let sorted = records.filter { $0.origin != .calendar }.sorted { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
        // When it was written on its own device's clock, not the clock time that orders it.
        let writtenTimes = journal.isEmpty ? [:] : try store.writtenTimes(of: sorted)
        let deciding = Resolver.decidingRecord(resolved, records: records)
        func recordLine(_ record: DayRecord) -> (device: String, entry: JournalEntry)? {
            journal.last { $0.entry.op == "record" && $0.entry.status == record.status.rawValue && $0.entry.origin == record.origin.rawValue
                && $0.entry.hlc == HLC.milliseconds(record.recordedAt) }
        }
        // Two devices wrote the deciding record's kind for the date: which
        // wins and why (clock order: HLC, then the device id).
        var why = ""
        if let deciding, let mine = recordLine(deciding),
           let rival = journal.filter({ $0.entry.op == "record" && $0.entry.origin == mine.entry.origin && $0.entry.device != mine.entry.device
                                    && ($0.entry.time, $0.entry.device) < (mine.entry.time, mine.entry.device) })
               .max(by: { ($0.entry.time, $0.entry.device) < ($1.entry.time, $1.entry.device) }) {
            let name = Printable.escaped(rival.device)
            why = " " + (rival.entry.time == mine.entry.time
                ? tr("(decides: written at the same clock time as \(name)'s; the greater device id wins)")
                : tr("(decides: written at a later clock time than \(name)'s)"))
        }
        // The latest manual record, when it is a plan: whether an arrival confirmed it (docs/policy.md "Plans need you").
        let lastManual = sorted.last { $0.origin == .manual }
        func planWords(_ record: DayRecord) -> String {
            guard let plan = record.plan else { return "" }
            var words = plan == .planner || record.note == PlanOrigin.note ? tr("planned with `deskdays plan`") : tr("planned on \(locale.day(policy.localDate(of: record.recordedAt)))")
            if record == lastManual {
                if resolved.origin == .automatic, let first = checkIns.min(by: { $0.at < $1.at }) {
                    let clock = policy.wallClock(of: first.at).minutes
                    let at = Localization.figure(String(format: "%02d:%02d", clock / 60, clock % 60))
                    words += "; " + (record.status == .office ? tr("confirmed by \(Words.source(first.source)) at \(at)")
                                                              : tr("overruled by \(Words.source(first.source)) at \(at)"))
                } else if record.status == .office {
                    words += "; " + tr("not confirmed")
                }
            }
            return " — " + words
        }
        for record in sorted {
            // A note of a record the date's decision overruled is marked so, never taken for the date's.
            let note = record.note.map { ($0 == PlanOrigin.note ? (record.plan != nil ? "" : " — " + tr("planned with `deskdays plan`"))
                                        : " — " + tr("\"\(Printable.escaped($0))\""))
                + (record == deciding ? "" : " " + tr("(overruled)")) } ?? ""
            let written = local(record.id.flatMap { writtenTimes[$0] } ?? record.recordedAt)
            lines.append(columns.row(tr("record"), Words.origin(record.origin))
                         + tr("\(Words.status(record.status)) (written \(written))") + planWords(record) + note
                         + (recordLine(record).map { " " + tr("(from \(Printable.escaped($0.device)))") } ?? "")
                         + (record == deciding ? why : ""))
        }
        for checkIn in checkIns.sorted(by: { $0.at < $1.at }) {
            let rule = checkIn.rule.map { " " + tr("rule \"\($0)\"") } ?? ""
            let at = local(checkIn.at)
            lines.append(columns.row(tr("check-in"), Words.source(checkIn.source)) + tr("at \(at)") + rule
                         + from { ($0.op == "checkin" || $0.op == "sign" && $0.kind == "arrival") && $0.source == checkIn.source.rawValue
                                  && $0.at.flatMap(parseRFC3339).map(HLC.milliseconds) == HLC.milliseconds(checkIn.at) })
        }
        if sorted.isEmpty && checkIns.isEmpty { lines.append("  " + tr("nothing is stored for this date.")) }
        // The calendar's events on the date, read from the folder (never stored).
        for event in session.calendar.events(on: day).sorted(by: { ($0.meaning, $0.file) > ($1.meaning, $1.file) }) {
            let what = event.meaning.status.map(Words.status) ?? tr("holiday")
            let plan = event.meaning == .office && day < session.today ? " " + tr("(a plan on a past date: not attendance)") : ""
            lines.append(columns.row(tr("calendar"), "") + tr("\(what) — \"\(Printable.escaped(event.summary))\" in \(Printable.escaped(event.file))") + plan)
        }
        if let presence {
            lines.append(contentsOf: Self.presenceLines(presence, policy: policy, today: session.today, locale: locale))
        }
        for removal in try store.removals(in: span) {
            let when = local(removal.removedAt)
            lines.append(columns.row(tr("removed"), Words.origin(removal.origin)) + tr("\(Printable.escaped(Words.removedEntry(removal.entry))) (on \(when))")
                         + from { ($0.op == "clear" || $0.op == "removed") && $0.hlc == HLC.milliseconds(removal.removedAt) })
        }
        print(lines.joined(separator: "\n"))
    }

    /// The table's first two columns, as wide as their longest word in this
    /// language (at least 9, English's) (display width: a wide character takes two), so every row
    /// lines up whatever the catalog says.
    struct Columns {
        let label = [tr("record"), tr("check-in"), tr("removed"), tr("calendar"), tr("tap"), tr("presence")]
            .map(Localization.displayWidth).reduce(9, max)
        let kind = (Origin.allCases.map(Words.origin) + Source.allCases.map(Words.source)).map(Localization.displayWidth).reduce(9, max)

        /// "  check-in  nfc       " and the rest of the row after it.
        func row(_ label: String, _ kind: String) -> String {
            "  " + Words.padded(label, self.label) + " " + (kind.isEmpty ? "" : Words.padded(kind, self.kind) + " ")
        }
    }

    /// Time on site and the arrivals and departures that decided it (docs/policy.md "Time on site").
    static func presenceLines(_ presence: DayPresence, policy: Policy, today: LocalDate, locale: ReportLocale) -> [String] {
        let last = policy.clockTime(of: presence.lastSeen)
        guard let firstSeen = presence.firstSeen, let hoursValue = presence.hours else {
            // Only departures: a presence that began on an earlier day ended on this one.
            return [tr("No arrival on this date: the last departure was at \(last) (no time on site).")]
                + presence.parts.map { Columns().row(tr("presence"), Words.source($0.source))
                    + tr("left \(policy.clockTime(of: $0.last))") }
        }
        let first = policy.clockTime(of: firstSeen)
        let hours = Words.decimal(hoursValue, locale: locale)
        var lines = [policy.dayStartMinutes == 0
                     ? tr("Time on site: \(first)–\(last), \(hours) h.")
                     : tr("Time on site: \(first)–\(last), \(hours) h (the day starts at \(policy.dayStartText)).")]
        for part in presence.parts {
            var words: [String] = []
            if let arrival = part.firstArrival { words.append(tr("first arrival \(policy.clockTime(of: arrival))")) }
            let lastTime = policy.clockTime(of: part.last)
            if part.present {
                words.append(presence.date == today && part.last < policy.start(of: presence.date.adding(days: 1))
                             ? tr("still present now (\(lastTime))")
                             : tr("present until the day ended (\(lastTime))"))
            } else if part.source.isInstant {
                if part.last != part.firstArrival { words.append(tr("last tap \(lastTime)")) }
            } else if part.last != part.firstArrival {
                words.append(part.firstArrival == nil ? tr("left \(lastTime), with no arrival of its own that date: no time on site")
                                                      : tr("left \(lastTime)"))
            }
            lines.append(Columns().row(part.source.isInstant ? tr("tap") : tr("presence"), Words.source(part.source)) + locale.list(words))
        }
        if policy.minHours > 0 {
            // min_hours as the configuration writes it (a key and its value).
            let hours = DaysCommand.hoursText(policy.minHours)
            lines.append(presence.isShort(minHours: policy.minHours)
                ? tr("Shorter than min_hours = \(hours): the check-ins do not make it an office day (a manual record still can).")
                : tr("At least min_hours = \(hours): the check-ins make it an office day."))
        }
        return lines
    }

    /// How a date counts, in words (docs/policy.md, "Counting a period").
    static func words(for count: PolicyEngine.DayCount, workday: Bool, status: AttendanceStatus?, policy: Policy) -> String {
        switch count {
        case .skipped:
            let reason = nonWorkdayReason(status: status, policy: policy)
            return tr("not at all: \(reason)")
        case .excused: return tr("excused: it leaves the eligible workdays")
        case .office: return workday ? tr("as an office day") : tr("as an office day and an eligible day (count_non_workdays)")
        case .remote: return tr("as a remote day: eligible, not in the office")
        case .unrecorded: return tr("unrecorded: eligible, not in the office, like a remote day")
        case .pending(let planned): return planned ? tr("not yet: a planned office day") : tr("not yet: still to come")
        }
    }

    /// Why a weekend or holiday does not count, and how it could.
    static func nonWorkdayReason(status: AttendanceStatus?, policy: Policy) -> String {
        guard status.map(policy.treatment(of:)) == .office, !policy.countNonWorkdays else { return tr("it is not a workday") }
        return tr("it is not a workday (set count_non_workdays = true in [policy] to count office days on weekends and holidays)")
    }
}
