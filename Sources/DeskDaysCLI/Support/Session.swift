import Files
import Localization
import CommandSupport
import AgentSocket
import DeskDaysCalendar
import DeskDaysConfig
import DeskDaysControl
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Synchronization

/// What one command invocation works with: the configuration, the time it
/// answers for (`now`), this machine's clock (`clock`), and (opened on
/// demand) the store and the pipeline.
package struct Session {
    package let options: GlobalOptions
    /// The configuration; with `[sync]`, its policy the one the devices
    /// agreed on (`policyAgreement`).
    package let configuration: Configuration
    /// With `[sync]` (and `share_policy`): which policy this device answers from, and why.
    package let policyAgreement: PolicyAgreement?
    /// The configuration as its file says, its own policy included.
    package let ownConfiguration: Configuration
    /// The instant this command answers for: `--today`, `DESKDAYS_NOW`,
    /// `DESKDAYS_TODAY`, else the clock's now. Reports read it; it never
    /// stamps or judges a journal line (`clock` does).
    package let now: AskedTime
    /// This machine's clock: journal lines, record times, and the check of
    /// other devices' lines (docs/design.md "Two dates").
    package let clock: @Sendable () -> ClockTime = ClockTime.now

    /// The configuration's policy, with the calendar's holidays.
    package let policy: Policy
    /// What the `[calendar]` folder says, read once per command (empty without one).
    package let calendar: CalendarDays
    package var today: LocalDate { policy.localDate(of: now.date) }
    /// Whether "now" is the clock's (no `--today`, `DESKDAYS_NOW` or `DESKDAYS_TODAY`).
    var nowIsFromClock: Bool { now.isClock }
    var engine: PolicyEngine { PolicyEngine(policy: policy) }

    /// This command's way to the agent (`--socket`, else the default socket).
    package let agent: AgentLink
    /// What this command did once and does not do again, however often it reads.
    private let memo = Memo()

    /// The sync folder merged (once per command) and the warnings said (each once).
    private final class Memo: Sendable {
        let merged = Mutex<Synchronizer?>(nil)
        let warned = Mutex(Set<String>())
    }

    package init(_ options: GlobalOptions, agent: AgentLink? = nil) throws {
        self.options = options
        self.agent = agent ?? AgentLink(path: paths.socket)
        // Yearly holidays from an iCalendar file are expanded well past any
        // report. (Day arithmetic rather than a Foundation Calendar, which
        // costs a millisecond to set up.)
        let year = LocalDate(dayNumber: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))).year
        let horizon = LocalDate(year: year + 10, month: 12, day: 31)
        let own = try ConfigLoader.load(path: options.configPath, required: options.configIsExplicit, horizon: horizon)
        ownConfiguration = own
        // Every command that reads with [sync] answers from the policy the devices share.
        if let settings = Session.syncSettings(own, options).settings, settings.sharePolicy {
            let agreement = PolicyAgreement.agree(own, memory: PolicyMemory(databasePath: options.databasePath), clock: clock())
            policyAgreement = agreement
            configuration = agreement.configuration
        } else {
            policyAgreement = nil
            configuration = own
        }
        let fixed = try Session.fixedNow(flag: options.today, environment: processEnvironment,
                                         policy: configuration.policy)
        if let fixed, !configuration.policy.localDate(of: fixed).isSupported {
            throw CLIError(tr("\"Now\" (\(formatRFC3339(fixed)), from DESKDAYS_NOW) is \(LocalDate.unsupportedPhrase); unset DESKDAYS_NOW or fix it."))
        }
        self.now = fixed.map(AskedTime.init(fixed:)) ?? AskedTime(clock: clock())
        calendar = Session.readCalendar(configuration.calendar, horizon: horizon!)
        policy = calendar.applying(to: configuration.policy)
        for problem in policyAgreement?.problems ?? [] { warnOnce(problem) }
    }

    /// With `[calendar] write = true`: the folder's DeskDays events made to
    /// match the manual office records, after a command changed them (the
    /// agent's store included, since the store is read after its reply).
    /// The record is stored by then: a folder that cannot be written (read
    /// only, gone) is said on stderr, with that, and the command succeeds;
    /// the next change writes the files.
    func writeCalendar() throws {
        guard let settings = configuration.calendar, settings.write else { return }
        let store = try readStore()
        let office = CalendarWriter.manualOfficeDates(try store.dateRange().map { try store.records(in: $0) } ?? [])
        do {
            _ = try CalendarWriter.reconcile(settings, officeDates: office, now: clock().date)
        } catch {
            printError("deskdays: " + tr("calendar: \(error); the record is stored, and the calendar files are written at the next change."))
        }
    }

    /// The calendar folder's events; each file skipped is named on stderr.
    static func readCalendar(_ settings: CalendarSettings?, horizon: LocalDate) -> CalendarDays {
        guard let settings else { return CalendarDays() }
        let reading = CalendarFolder.read(settings, horizon: horizon)
        for problem in reading.problems { printError("deskdays: " + Printable.escaped(problem)) }
        return reading.days
    }

    /// "Now" when it is fixed: `--today`, else `DESKDAYS_NOW` (RFC 3339),
    /// else `DESKDAYS_TODAY`; nil means the clock. A date alone means 12:00
    /// local on that date (docs/policy.md).
    static func fixedNow(flag: String?, environment: [String: String], policy: Policy) throws -> Date? {
        if let flag {
            return policy.instant(of: try date(flag, option: "--today"))
        }
        if let text = environment["DESKDAYS_NOW"], !text.isEmpty {
            guard let date = parseRFC3339(text) else {
                throw CLIError(tr("DESKDAYS_NOW=\(text) is not an RFC 3339 time; write it like 2026-11-18T09:30:00Z or unset it."))
            }
            return date
        }
        if let text = environment["DESKDAYS_TODAY"], !text.isEmpty {
            guard let day = LocalDate(text) else {
                throw CLIError(tr("DESKDAYS_TODAY=\(text) is not a date; write it as YYYY-MM-DD or unset it."))
            }
            guard day.isSupported else {
                throw CLIError(tr("DESKDAYS_TODAY=\(text) is \(LocalDate.unsupportedPhrase); fix it or unset it."))
            }
            return policy.instant(of: day)
        }
        return nil
    }

    /// The store, or an empty in-memory one when the database does not exist
    /// yet (reading never creates files). Read through one read-only
    /// connection; `quick_check` runs on every open for writing and in `doctor`.
    /// A database the user named must exist to be read; only the default
    /// may be absent (a first run); one out of reach is always an error.
    func readStore() throws -> AttendanceStore {
        // With [sync], a read merges the folder before it answers, unless
        // the agent serving this database does that (reads never write).
        if syncSettings != nil, !agentSyncs, let synced = try synchronizer() { return synced.store }
        let path = options.databasePath
        switch PathCheck.reach(path) {
        case .present:
            return try AttendanceStore(readingFrom: path)
        case .absent where !options.databaseIsExplicit:
            return try AttendanceStore.inMemory()
        case .absent:
            throw CLIError(tr("The database \(path) does not exist; fix the path, or leave out --database/DESKDAYS_DATABASE to use the default."))
        case .unreachable(let reason):
            throw CLIError(tr("The database \(path) cannot be reached (\(reason)); fix the path or its permissions."))
        }
    }

    /// The store for writing (created, 0600 in a 0700 folder, when missing).
    package func writeStore() throws -> AttendanceStore {
        try AttendanceStore(path: options.databasePath)
    }

    func pipeline() throws -> CheckInPipeline {
        if let synced = try synchronizer() {
            return CheckInPipeline(store: synced.store, policy: policy, now: clock, journal: synced)
        }
        let store = try writeStore()
        return CheckInPipeline(store: store, policy: policy, now: clock, journal: store.journal(publishingTo: nil))
    }

    /// With `[sync] folder` set: the database for writing, made a syncing
    /// device (history journaled once), its own journal brought up to date
    /// in the folder and every other device's merged; problems go to stderr
    /// as warnings and the command goes on. Nil without `[sync]`.
    package func synchronizer() throws -> Synchronizer? {
        guard let settings = syncSettings else { return nil }
        // A command merges once, however many times it reads (`days --json` reads twice).
        if let kept = memo.merged.withLock({ $0 }) { return kept }
        let sync = try Synchronizer(store: try writeStore(), folder: settings.folder, deviceName: settings.deviceName,
                                    now: clock, inbox: inboxRules)
        for warning in sync.catchUp() { warnOnce(warning) }
        memo.merged.withLock { $0 = sync }
        return sync
    }

    /// A sync warning on stderr, once per command however often it merges.
    func warnOnce(_ warning: String) {
        if memo.warned.withLock({ $0.insert(warning).inserted }) { printError("deskdays: " + tr("sync: \(Printable.escaped(warning)).")) }
    }

    /// Whether a running agent serves this database and configuration, and
    /// so merges the sync folder itself (asked at most once: `AgentLink`).
    var agentSyncs: Bool { agent.servesSync(options) }

    /// How the sync folder's inbox is read: this configuration's policy and rule check.
    var inboxRules: Synchronizer.InboxRules { Synchronizer.InboxRules(configuration) }

    /// `[sync]` when it applies to this command's database, else nil (with
    /// one note on stderr): sync is for the database the configuration
    /// belongs to (docs/cli.md "Sync"), the one `[sync] database` names,
    /// else the one given with the configuration: the default database, or
    /// `--database`/`DESKDAYS_DATABASE` given together with
    /// `--config`/`DESKDAYS_CONFIG`. A scratch database given alone is
    /// neither merged into nor published.
    var syncSettings: SyncSettings? {
        let (settings, note) = Session.syncSettings(configuration, options)
        if let note { warnOnce(note) }
        return settings
    }

    static func syncSettings(_ configuration: Configuration, _ options: GlobalOptions) -> (settings: SyncSettings?, note: String?) {
        guard let settings = configuration.sync else { return (nil, nil) }
        let database = options.databasePath
        func same(_ a: String, _ b: String) -> Bool { AgentPaths.canonical(a) == AgentPaths.canonical(b) }
        let owner = settings.database ?? (options.configIsExplicit ? database : paths.database)
        guard !same(owner, database) else { return (settings, nil) }
        return (nil, tr("[sync] in \(options.configPath) is for \(owner); \(database) is neither merged with the folder nor written to it"))
    }

    /// The report for `selector` from the stored data.
    func report(_ selector: PeriodSelector = .current, store: AttendanceStore? = nil) throws -> Report {
        try answers.report(selector, store: try store ?? readStore(), today: today, now: now.date)
    }

    /// Parses a `--date`-style argument.
    static func date(_ text: String, option: String) throws -> LocalDate {
        guard let date = LocalDate(text) else {
            // Written right but past the month's end (2026-11-31, 2026-02-29): say so, not how to write a date.
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
               let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), day > 28 {
                let days = LocalDate.daysIn(month: month, year: year)
                throw CLIError(tr("\(option) \(text) is not a date: that month has \(days) days."))
            }
            throw CLIError(tr("\(option) \(text) is not a date; write it as YYYY-MM-DD (e.g. 2026-11-18)."))
        }
        guard date.isSupported else {
            throw CLIError(tr("\(option) \(text) is \(LocalDate.unsupportedPhrase); check the year."))
        }
        return date
    }
}

/// Parses RFC 3339 times (`2026-11-18T09:30:00Z`, `…+01:00`, fractional seconds).
func parseRFC3339(_ text: String) -> Date? {
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    if let date = plain.date(from: text) { return date }
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return fractional.date(from: text)
}

/// Formats an instant as RFC 3339 UTC.
func formatRFC3339(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}
