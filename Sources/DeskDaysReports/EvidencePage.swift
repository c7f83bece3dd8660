import Localization
import DeskDaysCore
import Foundation

/// `deskdays evidence`: one printable, self-contained page for a dispute
/// (docs/cli.md): the policy in force, every date of the period with its
/// status, origin, sources and their local first/last times, notes, every
/// record written for those dates and every removal, with when. A SHA-256
/// digest of the day table is printed on the page (and by the command), so
/// a printed copy can be matched with the file. No rule names, networks,
/// tags, places or coordinates: only kinds of check-in and times.
public struct EvidencePage: Sendable {
    /// An entry the user removed (`deskdays clear`), as the store lists it.
    public struct Removal: Sendable {
        public var date: LocalDate
        public var origin: Origin
        public var entry: String
        public var removedAt: Date

        public init(date: LocalDate, origin: Origin, entry: String, removedAt: Date) {
            self.date = date
            self.origin = origin
            self.entry = entry
            self.removedAt = removedAt
        }
    }

    public var policy: Policy
    public var report: Report
    public var resolved: [LocalDate: ResolvedDay]
    public var presence: [LocalDate: DayPresence]
    public var records: [DayRecord]
    /// When records were written on their own device's clock, by record id
    /// (`AttendanceStore.writtenTimes`); a record not in it was written at its `recordedAt`.
    public var writtenTimes: [Int64: Date]
    public var removals: [Removal]
    /// Lines of the configuration beyond `policy` that decided days (the fallback).
    public var settings: [(String, String)]
    /// When the page was made.
    public var generated: Date
    /// The language of the page's words and the direction of its text. The
    /// day table (and so its digest) keeps the same fixed, English and ISO
    /// cells in every locale, so a digest can be checked anywhere.
    public var locale: ReportLocale

    public init(policy: Policy, report: Report, resolved: [LocalDate: ResolvedDay], presence: [LocalDate: DayPresence],
                records: [DayRecord], writtenTimes: [Int64: Date] = [:], removals: [Removal], settings: [(String, String)],
                generated: Date, locale: ReportLocale = .process) {
        self.policy = policy
        self.report = report
        self.resolved = resolved
        self.presence = presence
        self.records = records
        self.writtenTimes = writtenTimes
        self.removals = removals
        self.settings = settings
        self.generated = generated
        self.locale = locale
    }

    /// The columns of the day table; the digest is over these texts.
    public static let columns = ["date", "weekday", "day", "status", "origin", "sources", "first_seen", "last_seen", "hours", "note"]

    /// The day table: one row per date of the period, each cell as printed.
    public func dayRows() -> [[String]] {
        report.period.span.map { date in
            let day = resolved[date]
            let seen = presence[date]
            let kind = policy.holidays[date].map { "holiday: \($0)" } ?? (policy.isWorkday(date) ? "workday" : "non-workday")
            // The deciding record's note is the date's; a note of a record it
            // overruled is named as overruled, never as the date's.
            let deciding = day.flatMap { Resolver.decidingRecord($0, records: records) }
            let overruled = records.filter { $0.date == date && $0.note != nil && $0 != deciding }
                .map { "overruled \($0.origin.rawValue) \($0.status.rawValue): \($0.note!)" }
            let note = ([deciding?.note].compactMap { $0 } + overruled).joined(separator: "; ")
            // A calendar's office event is a plan, never shown as attendance.
            let plan = day?.origin == .calendar && day?.status == .office
            return [date.description, date.weekday.key, kind, plan ? "planned_office" : day?.status?.rawValue ?? "", day?.origin?.rawValue ?? "",
                    sourcesText(date, day: day, seen: seen),
                    seen?.firstSeen.map { policy.clockTime(of: $0).description } ?? "", seen.map { policy.clockTime(of: $0.lastSeen).description } ?? "",
                    seen?.hours.map { String($0) } ?? "", note]
                .map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
                    .replacingOccurrences(of: "\r", with: " ") }
        }
    }

    /// "nfc 08:52; wifi 08:55–17:40": each source with its local times.
    func sourcesText(_ date: LocalDate, day: ResolvedDay?, seen: DayPresence?) -> String {
        var parts: [String] = []
        let timed = Dictionary(uniqueKeysWithValues: (seen?.parts ?? []).map { ($0.source, $0) })
        for source in day?.sources ?? [] {
            guard let part = timed[source] else {
                parts.append(source.rawValue)
                continue
            }
            let first = part.firstArrival.map { policy.clockTime(of: $0).description }
            let last = policy.clockTime(of: part.last).description
            var text = source.rawValue
            if source.isInstant {
                text += " " + (first ?? last) + (first != nil && part.last != part.firstArrival ? ", last tap \(last)" : "")
            } else if let first {
                text += " \(first)–\(last)"
                if part.present { text += date == report.today ? " (still present)" : " (present at the day's end)" }
            } else {
                text += " left \(last)"
            }
            parts.append(text)
        }
        // Departures of sources with no arrival of their own that date: shown, never time on site.
        for part in seen?.parts ?? [] where !(day?.sources ?? []).contains(part.source) {
            parts.append("\(part.source.rawValue) left \(policy.clockTime(of: part.last)) (no arrival that date: not counted)")
        }
        return parts.joined(separator: "; ")
    }

    /// The text the digest is taken over: the header and every row, cells
    /// separated by tabs, lines ended by a newline, UTF-8.
    public func tableText() -> String {
        ([Self.columns] + dayRows()).map { $0.joined(separator: "\t") + "\n" }.joined()
    }

    /// SHA-256 of `tableText()`, hexadecimal.
    public func digest() -> String { SHA256.hex(tableText()) }

    /// `2026-03-14 08:52 +00:00`: an instant in the policy's zone, with its offset.
    func stamp(_ instant: Date) -> String {
        let (date, minutes) = policy.wallClock(of: instant)
        let offset = policy.timeZone.secondsFromGMT(for: instant) / 60
        return Localization.figure(String(format: "%@ %02d:%02d %@%02d:%02d", date.description, minutes / 60, minutes % 60,
                                              offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60))
    }

    public func html() -> String {
        let period = report.period
        let title = tr("Attendance evidence — \(locale.periodLabel(period))")
        let digest = digest()
        var out = HTMLReport.head(title: title, locale: locale, style: Self.style, colorScheme: false) + """
        <h1>\(SVG.escape(title))</h1>
        <p class="sub">\(SVG.escape(tr("\(locale.day(period.start)) to \(locale.day(period.end)), as of \(locale.day(report.today)); page made \(stamp(generated))")))</p>

        """
        out += section(tr("Policy in force"), rows: policyRows() + settings)
        var figures: [(String, String)] = [
            (tr("Status"), report.standingWords), (tr("Office days"), locale.number(report.office)), (tr("Required"), locale.number(report.required)),
            (tr("Eligible workdays"), locale.number(report.eligible)), (tr("Remote"), locale.number(report.remote)),
            (tr("Unrecorded"), locale.number(report.unrecorded)), (tr("Excused"), locale.number(report.excused)),
        ]
        if let short = report.shortDays { figures.append((tr("Short days"), locale.number(short))) }
        out += section(tr("Figures"), rows: figures)

        out += "<section>\n<h2>\(SVG.escape(tr("Days")))</h2>\n<table class=\"days\">\n"
            + "<caption>\(SVG.escape(tr("Every date of the period, as the digest below covers it")))</caption>\n"
        out += "<thead><tr>"
        // The column names are part of the digested text: fixed, whatever the language.
        for name in Self.columns { out += "<th scope=\"col\">\(SVG.escape(name))</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in dayRows() {
            let workday = policy.isWorkday(LocalDate(row[0])!)
            // Free text (the sources, a holiday's name, the note) wraps; the rest are words kept whole.
            out += "<tr\(workday ? "" : " class=\"off\"")>" + row.enumerated().map { column, text in
                if column == 5 {
                    // Each source's times whole ("gps 22:00–03:30"), wrapping between sources.
                    let parts = text.components(separatedBy: "; ").map { "<span>\(SVG.escape($0))</span>" }
                    return "<td class=\"text\">" + parts.joined(separator: "; ") + "</td>"
                }
                let free = column == 9 || (column == 2 && text.hasPrefix("holiday"))
                return "<td\(free ? " class=\"free\"" : "")>\(SVG.escape(text))</td>"
            }.joined() + "</tr>\n"
        }
        out += "</tbody>\n</table>\n"
        out += "<p class=\"digest\">" + SVG.escape(tr("SHA-256 of the day table (its header and rows as printed, cells separated by tabs, one line each, UTF-8):"))
            + " <code>\(digest)</code></p>\n</section>\n"

        out += "<section>\n<h2>\(SVG.escape(tr("Records written and removed")))</h2>\n"
        // Calendar events are read, never written: not in this log.
        let written = records.filter { $0.origin != .calendar }.sorted { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
        if written.isEmpty && removals.isEmpty {
            out += "<p>" + SVG.escape(tr("No record was written or removed for these dates: every status above comes from check-ins or nothing.")) + "</p>\n"
        } else {
            out += "<table class=\"log\">\n"
                + "<caption>\(SVG.escape(tr("Records written and removed, oldest first")))</caption>\n"
                + "<thead><tr>" + [tr("date"), tr("entry"), tr("origin"), tr("when"), tr("note")]
                    .map { "<th scope=\"col\">\(SVG.escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            var lines: [(Date, String)] = written.map { record in
                (record.recordedAt, "<tr><td>\(Localization.figure(record.date.description))</td><td class=\"text\">\(SVG.escape(tr("\(record.status.word) record written")))</td>"
                 + "<td>\(SVG.escape(record.origin.word))</td><td>\(SVG.escape(stamp(record.id.flatMap { writtenTimes[$0] } ?? record.recordedAt)))</td>"
                 + "<td class=\"free\">\(SVG.escape(record.note ?? ""))</td></tr>\n")
            }
            lines += removals.map { removal in
                (removal.removedAt, "<tr class=\"removed\"><td>\(Localization.figure(removal.date.description))</td><td class=\"text\">\(SVG.escape(tr("removed: \(RemovedEntry.words(removal.entry))")))</td>"
                 + "<td>\(SVG.escape(removal.origin.word))</td><td>\(SVG.escape(stamp(removal.removedAt)))</td><td></td></tr>\n")
            }
            out += lines.sorted { $0.0 < $1.0 }.map(\.1).joined() + "</tbody>\n</table>\n"
        }
        out += "</section>\n"
        let zone = policy.timeZone.identifier
        out += "<footer>" + SVG.escape(tr("""
        Made by DeskDays from the attendance database on the user's own computer. Automatic check-ins are \
        listed by kind (nfc, qr, wifi, gps, external) with local times in \(zone); \
        no places, networks, tag identifiers or rule names are kept or shown. Precedence: manual > automatic \
        > imported > fallback.
        """)) + """
        </footer>
        </body>
        </html>

        """
        return out
    }

    func policyRows() -> [(String, String)] {
        let target = policy.target
        // The policy's values are shown as the configuration writes them (keys and values the user types).
        let label = locale.periodLabel(report.period)
        let minimum = TerminalCalendar.hours(policy.minHours)
        var rows: [(String, String)] = [
            (tr("Time zone"), policy.timeZone.identifier),
            (tr("Workdays"), policy.workdays.sorted().map(\.key).joined(separator: ", ")),
            (tr("Week starts"), policy.weekStart.key),
            (tr("Period"), "\(policy.period.rawValue) (\(label))"),
            (tr("Target"), target.words(value: Localization.figure(target.hundredths % 100 == 0 ? String(target.hundredths / 100) : String(target.value)), over: report.period.kind)),
            (tr("Counts"), [AttendanceStatus.travel, .sick, .vacation, .leave]
                .map { status in tr("\(status.word) as \(policy.treatment(of: status).word)") }.joined(separator: ", ")),
            (tr("Weekend and holiday office days"), policy.countNonWorkdays ? tr("counted") : tr("not counted")),
            (tr("Day starts at"), Localization.figure(policy.dayStartText)),
            (tr("Minimum time on site"), policy.minHours > 0 ? tr("\(figures: minimum) h") : tr("none")),
        ]
        let holidays = report.period.span.compactMap { date in policy.holidays[date].map { Localization.figure(date.description) + " " + $0 } }
        rows.append((tr("Holidays in the period"), holidays.isEmpty ? tr("none") : holidays.joined(separator: "; ")))
        return rows
    }

    func section(_ title: String, rows: [(String, String)]) -> String {
        var out = "<section>\n<h2>\(SVG.escape(title))</h2>\n<table class=\"pairs\">\n"
        for (name, value) in rows {
            out += "<tr><th scope=\"row\">\(SVG.escape(name))</th><td>\(SVG.escape(value))</td></tr>\n"
        }
        return out + "</table>\n</section>\n"
    }

    /// Screen and print (A4 or US Letter: the printer's paper): in the day
    /// table and the log, a date, a status, a kind, an origin, a time and a
    /// column's name are kept whole on one line and their columns sized to
    /// them; free text (sources, notes, a holiday's name, a log entry)
    /// takes the rest of the width and wraps, anywhere if it must, so
    /// nothing runs past the page's right edge; header rows repeat.
    static let style = """
    @page{margin:12mm}
    body{margin:0 auto;max-width:960px;padding:16px;color:#000;background:#fff;font:10pt/1.35 system-ui,sans-serif}
    h1{font-size:16pt;margin:0 0 4px}
    h2{font-size:12pt;margin:16px 0 6px}
    .sub{color:#444;margin:0}
    table{border-collapse:collapse;width:100%;table-layout:fixed}
    .days,.log{table-layout:auto}
    .days td,.days th,.log td,.log th{white-space:nowrap}
    .days td.free,.log td.free{white-space:normal;overflow-wrap:anywhere;width:40%}
    .days td.text,.log td.text{white-space:normal}
    .days td.text span{white-space:nowrap}
    th,td{padding:2px 4px;text-align:left;vertical-align:top;overflow-wrap:break-word;word-break:normal;hyphens:manual}
    .pairs th{width:30%;font-weight:normal;color:#444}
    .days,.log{font-size:8pt}
    .days th,.days td,.log th,.log td{border-bottom:1px solid #bbb}
    .days tr.off{color:#666}
    .log tr.removed{font-style:italic}
    thead{display:table-header-group}
    tr{break-inside:avoid}
    .digest{font-size:9pt}
    .digest code{font-size:9pt;overflow-wrap:anywhere}
    footer{margin-top:16px;color:#444;font-size:8pt}
    @media print{body{padding:0;max-width:none}}

    """
}
