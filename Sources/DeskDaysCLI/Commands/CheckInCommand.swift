import Files
import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import DeskDaysPipeline
import Foundation
import Spawn
#if canImport(Glibc)
import Glibc
#endif

extension AttendanceStatus {
    /// `--status Office`, `--status wfh`: the words imports and the
    /// configuration accept; anything else is one sentence, with the
    /// nearest status when one is near ("did you mean office?").
    static func argument(_ text: String) throws -> AttendanceStatus {
        if let status = AttendanceStatus(named: text) { return status }
        // The values to type are the statuses' names, in every language.
        if let near = AttendanceStatus.closest(to: text) {
            throw ValidationError(tr("\"\(text)\" is not a status; did you mean \(near.rawValue)? (office, travel, remote, sick, vacation, leave)"))
        }
        throw ValidationError(tr("\"\(text)\" is not a status (office, travel, remote, sick, vacation, leave, or a word such as wfh, pto or sick leave)"))
    }
}

/// `deskdays checkin`: a manual record (the user always wins).
struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: tr("Record a day (default: today, office) or a range of workdays by hand."))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("The date, YYYY-MM-DD (default: today).")))
    var date: String?

    @Option(help: ArgumentHelp(tr("office, travel, remote, sick, vacation or leave (any case; also wfh, home, pto, annual leave…).")),
            transform: AttendanceStatus.argument)
    var status: AttendanceStatus = .office

    @Option(help: ArgumentHelp(tr("A note kept with the record.")))
    var note: String?

    @Option(help: ArgumentHelp(tr("First date of a range (workdays only), with --to.")))
    var from: String?

    @Option(help: ArgumentHelp(tr("Last date of a range, with --from.")))
    var to: String?

    @Flag(help: ArgumentHelp(tr("With --from/--to: record every workday of the range, replacing what each held (without it, dates that already have a record keep it).")))
    var overwrite = false

    @Flag(help: ArgumentHelp(tr("Check in with the office QR code: opens the [qr] camera for up to 30 s.")))
    var qr = false

    @Flag(help: ArgumentHelp(tr("Print JSON (docs/cli.md).")))
    var json = false

    func validate() throws {
        if qr, date != nil || from != nil || to != nil || note != nil || status != .office {
            throw ValidationError(tr("--qr records an automatic office check-in for now; drop --date, --from, --to, --status and --note."))
        }
        if date != nil, from != nil || to != nil {
            throw ValidationError(tr("Use either --date or --from/--to, not both."))
        }
        if (from == nil) != (to == nil) {
            throw ValidationError(tr("A range needs both --from and --to."))
        }
        if overwrite, from == nil {
            throw ValidationError(tr("--overwrite goes with --from and --to (--date always replaces what the date held)."))
        }
    }

    func run() async throws {
        let session = try Session(global, agent: socket.link())
        if qr { return try await checkInByQR(session) }
        var dates: [LocalDate]
        var kept: [(Origin, Int)] = []
        var range: (first: LocalDate, last: LocalDate)?
        var keptDates: [LocalDate] = []
        if let from, let to {
            let first = try Session.date(from, option: "--from"), last = try Session.date(to, option: "--to")
            range = (first, last)
            guard first <= last else {
                throw CLIError(tr("--from \(session.reportLocale.day(first)) is after --to \(session.reportLocale.day(last)); swap them."))
            }
            guard first.days(to: last) <= 366 else {
                throw CLIError(tr("The range \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) is longer than a year; record it in parts."))
            }
            dates = DateSpan(first, last).filter(session.policy.isWorkday)
            guard !dates.isEmpty else {
                throw CLIError(tr("\(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) holds no workday; nothing was recorded."))
            }
            // A range fills: a date with a record keeps it, unless --overwrite.
            if !overwrite {
                let held = try Self.recorded(DateSpan(first, last), session)
                kept = Self.keptCounts(dates.compactMap { held[$0] })
                keptDates = dates.filter { held[$0] != nil }
                dates = dates.filter { held[$0] == nil }
                if dates.isEmpty, json {
                    return print(try Render.json(Recorded(status: status, from: first, to: last, recorded: [], kept: keptDates)))
                }
                if dates.isEmpty {
                    let count = kept.reduce(0) { $0 + $1.1 }
                    print(trn("Nothing recorded: the \(count) workday from \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) already has a record (\(Self.describe(kept, session.reportLocale))); --overwrite replaces it.",
                              "Nothing recorded: all \(count) workdays from \(session.reportLocale.day(first)) to \(session.reportLocale.day(last)) already have a record (\(Self.describe(kept, session.reportLocale))); --overwrite replaces them.", count))
                    print(Render.statusLine(try session.report()))
                    return
                }
            }
        } else {
            dates = [try date.map { try Session.date($0, option: "--date") } ?? session.today]
        }
        // Through the running agent when there is one, else straight into the database.
        let id = AgentRoute.newRequestID()
        if try AgentRoute.send(.checkin(dates: dates, status: status, note: note), socket: socket, global: global, id: id) == nil {
            let pipeline = try session.pipeline()
            _ = try await AgentRoute.direct(id) { try await pipeline.recordManual(dates: dates, status: status, note: note, today: session.today) }
        }
        try session.writeCalendar()
        if json {
            return print(try Render.json(Recorded(status: status, from: range?.first ?? dates[0], to: range?.last ?? dates[0],
                                                  recorded: dates, kept: keptDates)))
        }
        if dates.count == 1, range == nil || kept.isEmpty {
            print(tr("Recorded \(Words.status(status)) for \(session.reportLocale.day(dates[0]))."))
            let policy = session.policy
            if case .skipped = PolicyEngine(policy: policy).classify(dates[0], status: status, today: session.today) {
                let reason = ExplainCommand.nonWorkdayReason(status: status, policy: policy)
                print(tr("Note: \(session.reportLocale.day(dates[0])) does not count: \(reason)."))
            }
        } else {
            // The range in the reader's date format (ISO under C), both ends included.
            let (count, first, last) = (dates.count, session.reportLocale.day(range?.first ?? dates.first!), session.reportLocale.day(range?.last ?? dates.last!))
            print(trn("Recorded \(Words.status(status)) for \(count) workday, \(first) to \(last).",
                      "Recorded \(Words.status(status)) for \(count) workdays, \(first) to \(last).", count))
        }
        if !kept.isEmpty {
            let count = kept.reduce(0) { $0 + $1.1 }
            print(trn("Kept \(count) date that already has a record: \(Self.describe(kept, session.reportLocale)); --overwrite replaces it.",
                      "Kept \(count) dates that already have a record: \(Self.describe(kept, session.reportLocale)); --overwrite replaces them.", count))
        }
        print(Render.statusLine(try session.report()))
    }

    /// `checkin --json`: the dates recorded and, for a range without
    /// `--overwrite`, the workdays kept because they hold a record already.
    struct Recorded: Encodable {
        var status: AttendanceStatus
        var from: LocalDate
        var to: LocalDate
        var recorded: [LocalDate]
        var kept: [LocalDate]
    }

    /// What decides each date of `span` that has a record: a manual record,
    /// an automatic check-in, an import or a calendar status; the end-of-day
    /// fallback is no record here (a range replaces it).
    static func recorded(_ span: DateSpan, _ session: Session) throws -> [LocalDate: Origin] {
        // A database not made yet holds nothing (the write makes it).
        if case .absent = PathCheck.reach(session.options.databasePath), session.syncSettings == nil { return [:] }
        let store = try session.readStore()
        let records = try store.records(in: span).filter { $0.origin != .fallback }
            + session.calendar.records(in: span, today: session.today)
        let checkIns = try store.checkIns(in: span)
        var held: [LocalDate: Origin] = [:]
        for date in Set(records.map(\.date) + checkIns.map(\.date)) {
            if let origin = Resolver.resolve(date, records: records, checkIns: checkIns).origin { held[date] = origin }
        }
        return held
    }

    /// How many kept dates each origin decides, in precedence order.
    static func keptCounts(_ origins: [Origin]) -> [(Origin, Int)] {
        [Origin.manual, .automatic, .import, .calendar].compactMap { origin in
            let count = origins.filter { $0 == origin }.count
            return count > 0 ? (origin, count) : nil
        }
    }

    /// "5 imported and 1 automatic": each count a message of its own (its
    /// plural, agreeing with "dates", the number where the language puts
    /// it), listed by the language's list pattern (ICU).
    static func describe(_ counts: [(Origin, Int)], _ locale: ReportLocale) -> String {
        locale.list(counts.map { origin, count in
            switch origin {
            case .manual: return trn("\(count) manual", "\(count) manual", count)
            case .automatic: return trn("\(count) automatic", "\(count) automatic", count)
            case .import: return trn("\(count) imported", "\(count) imported", count)
            default: return trn("\(count) from the calendar", "\(count) from the calendar", count)
            }
        })
    }

    /// Scans the camera (up to 30 s); a matching code becomes one qr check-in
    /// through the same pipeline the agent uses, stamped when it was seen.
    /// The camera needs V4L2 and the QR decoders, which `deskdays` does not link: the
    /// scan is `deskdays-hardware qr scan --camera`, run as a child whose
    /// output names the rule the code matched.
    private func checkInByQR(_ session: Session) async throws {
        let rule = try await Self.ruleFromCamera(seconds: 30, config: global.configIsExplicit ? global.configPath : nil)
        let seen = try Session.fixedNow(flag: global.today, environment: processEnvironment,
                                        policy: session.policy) ?? Date()
        let event = CheckInEvent(source: .qr, rule: rule, time: seen)
        // Through the running agent when there is one, else straight into the database.
        let outcome = try await AgentRoute.submit(event, session: session, socket: socket)
        switch outcome {
        case .stored(let date): print(tr("Checked in by QR code (rule \(rule)) for \(session.reportLocale.day(date))."))
        case .duplicate(let date): print(tr("\(session.reportLocale.day(date)) already has a qr check-in; kept the first."))
        }
        print(Render.statusLine(try session.report()))
    }

    /// Runs `deskdays-hardware qr scan --camera` and returns the rule of the
    /// code it saw. Its messages (the prompt, camera trouble, no code seen)
    /// reach the user's terminal directly; a failure exits with its status.
    static func ruleFromCamera(seconds: Int, config: String?) async throws -> String {
        let (found, looked) = Companion.locate(Hardware.executableName)
        guard let program = found else {
            throw CLIError(tr("--qr needs \(Hardware.executableName), which is not installed (looked for \(looked.joined(separator: " and "))); reinstall DeskDays with `make install`."))
        }
        // Its prompt and messages reach the user's terminal; its output is read after it ended.
        let result: Program.Output
        do {
            result = try await Program.run(program, ["qr", "scan", "--camera", "--timeout", String(seconds)] + (config.map { ["--config", $0] } ?? []),
                                           stderr: .inherit)
        } catch {
            throw CLIError(tr("cannot start \(program) (\(error)); reinstall DeskDays with `make install`."))
        }
        guard result.status == 0, !result.terminatedBySignal else {
            throw ExitCode(result.terminatedBySignal ? 128 + result.status : result.status)
        }
        let printed = result.stdout
        // One line per code seen: camera<TAB>PAYLOAD<TAB>RULE; the last names the matching rule.
        guard let rule = printed.split(separator: "\n").last?.split(separator: "\t").last.map(String.init), rule != "-" else {
            throw CLIError(tr("no office QR code was seen in \(seconds) s; hold the code steady 20–40 cm from the camera, or check [qr] payloads."))
        }
        return rule
    }
}
