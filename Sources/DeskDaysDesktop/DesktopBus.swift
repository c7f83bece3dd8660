import Localization
import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysControl
import DeskDaysCore
import DeskDaysReports
import Foundation
import Logging
import Synchronization
import SystemBus

/// What the session-bus interface and the tray show: the current period's
/// figures and today's status.
package struct DesktopSummary: Sendable, Equatable {
    package var today: LocalDate
    /// The period's label as `report --json` writes it (the D-Bus property).
    package var period: String
    /// The period as the user's language names it (the tray's tooltip).
    package var periodName: String
    /// Where the period stands (`report --json` writes its raw value: met, on_track, behind, impossible).
    package var status: Report.Status
    package var office: Int
    package var required: Int
    package var remaining: Int
    /// `office / elapsed`; -1 while no workday of the period has elapsed.
    package var compliance: Double
    /// Today's resolved status; "" while nothing is recorded.
    package var todayStatus: String
    package var workday: Bool
    /// Today's holiday, by name ("" when today is none): the tray names it.
    package var holiday: String
    /// "Next planned office day: …" ("" when none is planned): the tooltip ends with it.
    package var nextPlan: String
    /// The period's past workdays with no status, in a sentence ("" when none): the tooltip says it.
    package var missing: String
    /// A weekly rule's current week (office, required); nil for the other rules.
    package var week: Week?
    package struct Week: Sendable, Equatable {
        package var office: Int
        package var required: Int
    }

    package init(report: Report, todayStatus: AttendanceStatus?, workday: Bool, holiday: String? = nil, nextPlan: String? = nil) {
        self.holiday = holiday ?? ""
        self.nextPlan = nextPlan ?? ""
        today = report.today
        period = report.period.label
        periodName = ReportLocale.process.periodLabel(report.period)
        status = report.status
        office = report.office
        required = report.required
        remaining = report.remainingRequired
        compliance = report.complianceToDate.map { ($0 * 10_000).rounded() / 10_000 } ?? -1
        self.todayStatus = todayStatus?.rawValue ?? ""
        self.workday = workday
        week = report.currentWeek.map { Week(office: $0.office, required: $0.required) }
        missing = Render.missingSentence(report)
    }
}

/// What a command run for a D-Bus method ended with.
package enum CommandOutcome: Sendable, Equatable {
    /// Its standard output.
    case printed(String)
    case refused(Refusal)

    /// A D-Bus error: its name under `DesktopBus.errorPrefix` and one sentence in the user's language.
    package struct Refusal: Error, Sendable, Equatable {
        /// `InvalidInput` (exit status 1: a date, a status, a range, a key or a value), `Refused` (2: the
        /// database refused, nothing was touched) or `Failed` (anything else).
        package var name: String
        package var message: String

        package init(name: String, message: String) {
            self.name = name
            self.message = message
        }

        /// The error a command's exit status names, with its message (stderr without the `deskdays: ` prefix).
        package init(status: Int32, stderr: String) {
            name = status == 1 ? "InvalidInput" : status == 2 ? "Refused" : "Failed"
            var text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("deskdays: ") { text.removeFirst("deskdays: ".count) }
            message = text.isEmpty ? tr("The command ended with status \(status).") : text
        }
    }
}

/// The agent on the session bus, over one long-lived sd-bus connection on a
/// thread of its own (sd-bus objects belong to one thread; other threads
/// hand it work through `post`, which wakes its `poll`):
///
/// - the interface `io.github.deskdays.DeskDays1` at
///   `/io/github/deskdays/DeskDays1` under the well-known name of the same
///   spelling (docs/cli.md, "The D-Bus interface"): read-only properties
///   announced with `PropertiesChanged` when the current answer changes
///   (`Agent.answerMayHaveChanged`, the same change notification that feeds
///   the socket's subscribers, never a poll), `CheckIn(sss)` and `Report(s)`;
/// - the reminder as a notification whose actions answer it, when the
///   notification server lists the `actions` capability, else naming the
///   command (see `showReminder`);
/// - a StatusNotifierItem tray icon with a com.canonical.dbusmenu menu, when
///   `[desktop] tray` is on and a StatusNotifierWatcher is (or later comes) on
///   the bus; registered again whenever the watcher restarts.
///
/// Only unix-socket session-bus addresses are used. Without a session bus
/// there is one info line, and reminders go through `DesktopNotifier`
/// (which logs why they cannot be shown). A bus lost later is reconnected
/// with backoff.
public final class DesktopBus: @unchecked Sendable {
    // @unchecked: sd-bus objects are single-threaded, so the fields under
    // "Bus thread only" are touched only on the bus thread; everything other
    // threads share is in `shared` (a Mutex) or immutable.
    package static let name = "io.github.deskdays.DeskDays1"
    package static let path = "/io/github/deskdays/DeskDays1"
    package static let interface = "io.github.deskdays.DeskDays1"
    /// Error names: `…Error.InvalidDate`, `InvalidStatus`, `InvalidPeriod`, `Failed`.
    package static let errorPrefix = "io.github.deskdays.DeskDays1.Error."

    package static let notifications = "org.freedesktop.Notifications"
    package static let notificationsPath = "/org/freedesktop/Notifications"
    package static let watcher = "org.kde.StatusNotifierWatcher"
    package static let watcherPath = "/StatusNotifierWatcher"
    package static let itemPath = "/StatusNotifierItem"
    package static let itemInterface = "org.kde.StatusNotifierItem"
    package static let menuPath = "/MenuBar"
    package static let menuInterface = "com.canonical.dbusmenu"

    /// The reminder's answers: action keys (never translated) and their statuses and labels.
    package static let answers: [(key: String, status: AttendanceStatus, label: String)] = [
        ("office", .office, tr("In the office")), ("remote", .remote, tr("Remote")), ("off", .vacation, tr("Day off")),
    ]

    /// What the bus side needs from the agent; each is safe to call from any thread.
    package struct Hooks: Sendable {
        /// The figures now (read from the store).
        var summary: @Sendable () throws -> DesktopSummary
        /// `report --json --period P`'s bytes.
        var report: @Sendable (PeriodSelector) -> Result<String, ControlProtocol.Failure>
        /// Records a manual status through the pipeline; `via` names the way in for the log.
        var record: @Sendable (_ date: LocalDate, _ status: AttendanceStatus, _ note: String?, _ via: String) async throws -> Void
        /// The agent's today.
        var today: @Sendable () -> LocalDate
        /// Writes the HTML report and opens it (logs what happened).
        var openReport: @Sendable () async -> Void
        /// Opens the window (`DesktopOpener.openApp`).
        var openApp: @Sendable () async -> Void
        /// No reminder today.
        var pauseReminders: @Sendable (LocalDate) -> Void
        /// The user closed a date's reminder without answering (it counts as ignored).
        var dismissed: @Sendable (LocalDate) -> Void
        /// The reminders on screen and unanswered, by notification id: kept
        /// beside the database, so that they outlive this connection (a
        /// reload or restart makes a new one).
        var onScreen: @Sendable () -> [UInt32: LocalDate]
        var keepOnScreen: @Sendable ([UInt32: LocalDate]) -> Void
        /// Runs a `deskdays` command (`days`, `checkin`, `clear`) for this agent's
        /// files and today: the one path, with the CLI's checks and messages.
        var command: @Sendable (_ arguments: [String]) async -> CommandOutcome
        /// Sets a configuration key through the configuration editor: what changed, in words, or why not.
        var configure: @Sendable (_ key: String, _ value: BusValue) -> Result<String, CommandOutcome.Refusal>
        /// Whether the configuration file exists (the window's first run asks for the rule when not).
        var configured: @Sendable () -> Bool
        /// What this machine shows of a check-in method (a reader, a Wi-Fi interface …), as `setup` says it; nil: nothing.
        var detect: @Sendable (_ method: String) -> String?

        package init(summary: @escaping @Sendable () throws -> DesktopSummary,
                     report: @escaping @Sendable (PeriodSelector) -> Result<String, ControlProtocol.Failure>,
                     record: @escaping @Sendable (_ date: LocalDate, _ status: AttendanceStatus, _ note: String?, _ via: String) async throws -> Void,
                     today: @escaping @Sendable () -> LocalDate, openApp: @escaping @Sendable () async -> Void,
                     openReport: @escaping @Sendable () async -> Void,
                     pauseReminders: @escaping @Sendable (LocalDate) -> Void, dismissed: @escaping @Sendable (LocalDate) -> Void,
                     onScreen: @escaping @Sendable () -> [UInt32: LocalDate] = { [:] },
                     keepOnScreen: @escaping @Sendable ([UInt32: LocalDate]) -> Void = { _ in },
                     command: @escaping @Sendable (_ arguments: [String]) async -> CommandOutcome,
                     configure: @escaping @Sendable (_ key: String, _ value: BusValue) -> Result<String, CommandOutcome.Refusal>,
                     configured: @escaping @Sendable () -> Bool = { true },
                     detect: @escaping @Sendable (_ method: String) -> String? = { _ in nil }) {
            self.command = command
            self.detect = detect
            self.configured = configured
            self.configure = configure
            self.summary = summary
            self.report = report
            self.record = record
            self.today = today
            self.openReport = openReport
            self.openApp = openApp
            self.pauseReminders = pauseReminders
            self.dismissed = dismissed
            self.onScreen = onScreen
            self.keepOnScreen = keepOnScreen
        }
    }

    /// A reminder to show.
    package struct Reminder: Sendable {
        var date: LocalDate
        var title: String
        /// Without the `actions` capability: names the command.
        var plainBody: String
        /// With it: asks the question the actions answer.
        var answerBody: String

        package init(date: LocalDate, title: String, plainBody: String, answerBody: String) {
            self.date = date
            self.title = title
            self.plainBody = plainBody
            self.answerBody = answerBody
        }
    }

    package enum Command: Sendable {
        case run(@Sendable (DesktopBus) -> Void)
        case remind(Reminder)
        /// A quiet notification (the day's first automatic check-in) that opens
        /// the window when activated; `done(true)` once the server answered (or the
        /// connection went), `done(false)` when it was never sent.
        case announce(title: String, body: String, done: @Sendable (Bool) -> Void)
    }

    /// What other threads share with the bus thread.
    private struct Shared {
        /// Whether commands are taken: from the start until a connection fails, and again once one works.
        var accepting: Bool
        var queue: [Command] = []
    }

    package let address: String?
    package let tray: Bool
    package let hooks: Hooks
    package let notifier: DesktopNotifier
    package let logger: Logger
    private let shared: Mutex<Shared>
    private let wake = WakePipe()

    // MARK: Bus thread only

    package var bus: OpaquePointer?
    package var main: BusObject?
    package var item: BusObject?
    package var menu: BusObject?
    package var subscriptions: [BusSubscription] = []
    package var summary: DesktopSummary?
    /// The reminders on screen, by notification id; the unanswered ones are
    /// kept through `hooks.keepOnScreen` whenever they change.
    package var shown: [UInt32: ShownReminder] = [:] {
        didSet {
            let open = shown.filter { !$0.value.answered }.mapValues(\.date)
            if open != oldValue.filter({ !$0.value.answered }).mapValues(\.date), keepsOnScreen { hooks.keepOnScreen(open) }
        }
    }
    /// Whether `shown` is this connection's to keep (not while a connection ends and forgets it).
    package var keepsOnScreen = false
    /// The announcements on screen (activating one opens the window).
    package var announced: Set<UInt32> = []
    /// The announcements sent and not answered yet, by a number of their own: each `done` runs once.
    package var pendingAnnouncements: [Int: @Sendable (Bool) -> Void] = [:]
    package var announcementNumber = 0
    package var menuRevision: UInt32 = 1
    package var pausedOn: LocalDate?
    /// Whether this connection owns `name` (else it is queued behind another agent).
    package var ownsName = false

    package struct ShownReminder {
        var date: LocalDate
        var answered = false
        /// Activated (clicked): the window was opened for it.
        var opened = false
    }

    package init(address: String?, tray: Bool, hooks: Hooks, notifier: DesktopNotifier, logger: Logger) {
        self.address = address
        self.tray = tray
        self.hooks = hooks
        self.notifier = notifier
        self.logger = logger
        shared = Mutex(Shared(accepting: address.map(BusSupport.isUnixOnly) ?? false))
    }

    // MARK: - From other threads

    /// Shows the day's reminder: on this connection (with answers where the
    /// server takes actions), or through `DesktopNotifier` when there is no bus.
    package func remind(_ reminder: Reminder) async {
        if !post(.remind(reminder)) {
            await notifier.notify(.question, title: reminder.title, body: reminder.plainBody)
        }
    }

    /// Shows a quiet notification on this connection, which hears it activated
    /// (it opens the window); returns once the server answered. False when
    /// there is no connection to show it on (the caller shows it another way).
    package func announce(title: String, body: String) async -> Bool {
        let shown = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
            let done: @Sendable (Bool) -> Void = { shown in once.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: shown) }
            if !post(.announce(title: title, body: body, done: done)) { done(false) }
        }
        return shown
    }

    /// Whether a connection takes work (else there is nothing to announce to).
    package var isServing: Bool { shared.withLock { $0.accepting } }

    /// The current answer may have changed: announce what did.
    package func update(_ summary: DesktopSummary) {
        _ = post(.run { $0.apply(summary) })
    }

    /// Queues work for the bus thread; false when there is no connection to do it on.
    package func post(_ command: Command) -> Bool {
        let accepted = shared.withLock { shared -> Bool in
            guard shared.accepting else { return false }
            shared.queue.append(command)
            return true
        }
        if accepted { wake.wake() }
        return accepted
    }

    /// Serves the session bus until the calling task is cancelled, or at once when there is none.
    package func run() async {
        guard let address else {
            logger.info("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR unset); no D-Bus interface or tray icon")
            return
        }
        guard BusSupport.isUnixOnly(address) else {
            logger.info("no D-Bus interface or tray icon: the session bus address names no unix socket")
            return
        }
        let stop = StopSignal()
        guard stop.descriptor >= 0, wake.descriptor >= 0 else {
            logger.info("cannot create a pipe (\(String(cString: strerror(errno)))); no D-Bus interface or tray icon")
            stopAccepting(stopped: false)
            return
        }
        await DeviceStream.run(name: "deskdays-dbus", stop: stop) { stop in self.loop(address: address, stop: stop) }
    }

    /// No more commands; reminders still queued go to `DesktopNotifier` (unless the agent is stopping).
    private func stopAccepting(stopped: Bool) {
        let left = shared.withLock { shared -> [Command] in
            shared.accepting = false
            defer { shared.queue = [] }
            return shared.queue
        }
        guard !stopped else { return }
        let notifier = self.notifier
        for command in left {
            switch command {
            case .remind(let reminder): Task { await notifier.notify(.question, title: reminder.title, body: reminder.plainBody) }
            case let .announce(_, _, done): done(false)
            case .run: break
            }
        }
    }

    // MARK: - The bus thread

    private enum Outcome {
        case stopped
        case noBus(String)
        case lost(String)
    }

    private func loop(address: String, stop: StopSignal) {
        var delay = Backoff(initialSeconds: 5, maximumSeconds: 300)
        var everConnected = false
        while true {
            let outcome = serve(address: address, stop: stop) { everConnected = true; delay.reset() }
            if case .stopped = outcome {
                stopAccepting(stopped: true)
                return
            }
            stopAccepting(stopped: false)
            switch outcome {
            case .stopped: return
            case .noBus(let reason) where !everConnected:
                logger.info("no D-Bus session bus (\(reason)); no D-Bus interface or tray icon")
                return
            case .noBus: break
            case .lost(let reason):
                logger.info("lost the session bus (\(reason)); reconnecting in the background")
            }
            guard stop.sleep(delay.next()) else { return }
        }
    }

    /// One connection: export, own the name, watch the notification server and the tray, dispatch until stopped or lost.
    private func serve(address: String, stop: StopSignal, connected: () -> Void) -> Outcome {
        let bus: OpaquePointer
        switch BusSupport.connect(address) {
        case .success(let started): bus = started
        case .failure(let failure): return .noBus(failure.reason)
        }
        connected()
        self.bus = bus
        defer {
            main = nil
            item = nil
            menu = nil
            subscriptions = []
            keepsOnScreen = false
            shown = [:]
            announced = []
            // No answer comes on a closed connection.
            pendingAnnouncements.values.forEach { $0(true) }
            pendingAnnouncements = [:]
            ownsName = false
            self.bus = nil
            // No flush: a hung notification daemon must not hold up a stop (the bus daemon releases the name on close).
            BusSupport.close(bus)
        }
        // The reminders an earlier connection showed (before a reload or
        // restart) are answered here, and withdrawn once their date is answered.
        shown = hooks.onScreen().mapValues { ShownReminder(date: $0) }
        keepsOnScreen = true
        summary = nil
        if let first = try? hooks.summary() { apply(first) }
        // The reminder's answers come to this connection whether or not it owns the name.
        watchNotifications(bus)
        ownName(bus)
        shared.withLock { $0.accepting = true }
        wake.wake()
        let end = BusSupport.dispatch(bus, stop: stop.descriptor, wake: wake.descriptor) {
            wake.drain()
            let commands = shared.withLock { shared -> [Command] in
                defer { shared.queue = [] }
                return shared.queue
            }
            for command in commands {
                switch command {
                case .run(let body): body(self)
                case .remind(let reminder): showReminder(reminder)
                case let .announce(title, body, done): announce(title: title, body: body, done: done)
                }
            }
        }
        switch end {
        case .stopped, .done, .timedOut: return .stopped
        case .lost(let reason): return .lost(reason)
        }
    }

    /// Exports the interface and asks for the name, queued behind an agent
    /// that owns it already (a second agent on another database, or the
    /// previous one of a reload that the bus has not seen leave yet): the
    /// bus hands the name over when that one goes (`NameAcquired`).
    private func ownName(_ bus: OpaquePointer) {
        do {
            main = try BusObject(bus: bus, path: Self.path, interface: Self.interface, members: mainMembers())
        } catch {
            logger.warning("\(error.reason); no D-Bus interface")
            return
        }
        if case .success(let subscription) = BusSupport.matchSignal(
            bus, sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameAcquired",
            { [unowned self] message in if BusSupport.readString(message) == Self.name { nameAcquired() } }) {
            subscriptions.append(subscription)
        }
        let result = BusSupport.requestName(bus, Self.name, queue: true)
        if result > 0 {
            nameAcquired()
        } else if result == 0 {
            logger.notice("another DeskDays agent owns \(Self.name) on the session bus; this one takes over its interface and tray icon when that one stops")
        } else {
            logger.warning("cannot own \(Self.name) on the session bus (\(BusSupport.describe(result))); no D-Bus interface")
        }
    }

    /// The name is ours (at once, or handed over later): serve, and show the tray icon.
    private func nameAcquired() {
        guard !ownsName, let bus else { return }
        ownsName = true
        logger.info("serving \(Self.name) on the session bus")
        if tray { showTray(bus) }
    }

    /// A new summary: `PropertiesChanged` for the properties that changed, and the tray's signals.
    private func apply(_ fresh: DesktopSummary) {
        let old = summary
        summary = fresh
        // Answered some other way (the tray, the CLI, a tap): the reminder on screen has nothing left to ask.
        if !fresh.todayStatus.isEmpty {
            for (id, reminder) in shown where reminder.date == fresh.today && !reminder.answered {
                shown[id]?.answered = true
                withdraw(id)
            }
        }
        guard let bus, let main, ownsName, old != fresh else { return }
        let changed = Self.propertyNames.filter { name in old.map { Self.value(name, $0) != Self.value(name, fresh) } ?? true }
        main.emitPropertiesChanged(on: bus, changed)
        if let item {
            let before = old.map(TrayLook.init), after = TrayLook(fresh)
            // A host that caches the pixmaps (xfce4-panel) redraws only on
            // NewIcon/NewAttentionIcon: a change of status is a change of
            // the icon shown, so it sends them too, then NewStatus.
            let statusChanged = before?.status != after.status
            if before?.icon != after.icon || statusChanged { item.emit(on: bus, signal: "NewIcon") }
            if statusChanged { item.emit(on: bus, signal: "NewAttentionIcon") }
            if before?.tooltip != after.tooltip || before?.title != after.title { item.emit(on: bus, signal: "NewToolTip") }
            if statusChanged {
                item.emit(on: bus, signal: "NewStatus") { BusSupport.append($0, string: after.status) }
            }
            // The menu shows the figures too.
            if before?.periodLine != after.periodLine || before?.weekLine != after.weekLine { menuChanged() }
        }
        if old?.today != fresh.today, pausedOn != nil {
            pausedOn = nil
            menuChanged()
        }
    }

    // MARK: - io.github.deskdays.DeskDays1

    package static let propertyNames = ["Today", "Period", "Status", "Office", "Required", "Remaining", "Compliance", "TodayStatus", "Week"]

    /// A property's value as text, to see which changed.
    private static func value(_ name: String, _ summary: DesktopSummary) -> String {
        switch name {
        case "Today": return summary.today.description
        case "Period": return summary.period
        case "Status": return summary.status.rawValue
        case "Office": return "\(summary.office)"
        case "Required": return "\(summary.required)"
        case "Remaining": return "\(summary.remaining)"
        case "Compliance": return "\(summary.compliance)"
        case "Week": return "\(summary.week?.office ?? 0) \(summary.week?.required ?? 0)"
        default: return summary.todayStatus
        }
    }

    private func mainMembers() -> [BusObject.Member] {
        func text(_ name: String, _ value: @escaping (DesktopSummary) -> String) -> BusObject.Member {
            .property(name, signature: "s", emitsChange: true) { [unowned self] reply in
                BusSupport.append(reply, string: summary.map(value) ?? "")
            }
        }
        func count(_ name: String, _ value: @escaping (DesktopSummary) -> Int) -> BusObject.Member {
            .property(name, signature: "u", emitsChange: true) { [unowned self] reply in
                BusSupport.append(reply, "u", UInt32(clamping: summary.map(value) ?? 0))
            }
        }
        return [
            text("Today") { $0.today.description },
            text("Period", \.period),
            text("Status") { $0.status.rawValue },
            count("Office", \.office),
            count("Required", \.required),
            count("Remaining", \.remaining),
            .property("Compliance", signature: "d", emitsChange: true) { [unowned self] reply in
                BusSupport.append(reply, "d", summary?.compliance ?? -1)
            },
            text("TodayStatus", \.todayStatus),
            // A weekly rule's current week: (office, required); (0, 0) for the other rules.
            .property("Week", signature: "(uu)", emitsChange: true) { [unowned self] reply in
                let week = summary?.week
                return BusSupport.container(reply, "r", "uu") {
                    BusSupport.steps([{ BusSupport.append(reply, "u", UInt32(clamping: week?.office ?? 0)) },
                                      { BusSupport.append(reply, "u", UInt32(clamping: week?.required ?? 0)) }])
                }
            },
            .property("Configured", signature: "b", emitsChange: false) { [unowned self] reply in
                BusSupport.append(reply, "b", Int32(hooks.configured() ? 1 : 0))
            },
            .method("CheckIn", input: "sss", output: "", names: ["date", "status", "note"]) { [unowned self] message, error in
                checkIn(message, error)
            },
            .method("Report", input: "s", output: "s", names: ["period", "json"]) { [unowned self] message, error in
                report(message, error)
            },
            // What the window needs (docs/cli.md, "The D-Bus interface"): the CLI's commands, their checks and output.
            .method("Days", input: "ss", output: "s", names: ["from", "to", "json"]) { [unowned self] message, error in
                let (from, to) = (BusSupport.readString(message) ?? "", BusSupport.readString(message) ?? "")
                return run(message, error, ["days", "--json", "--from=\(from)", "--to=\(to)"])
            },
            .method("SetRange", input: "sssb", output: "s", names: ["from", "to", "status", "overwrite", "json"]) { [unowned self] message, error in
                let (from, to, status) = (BusSupport.readString(message) ?? "", BusSupport.readString(message) ?? "",
                                          BusSupport.readString(message) ?? "")
                let overwrite = (BusSupport.read(message, "b", as: Int32.self, zero: 0) ?? 0) != 0
                return run(message, error, ["checkin", "--json", "--from=\(from)", "--to=\(to)", "--status=\(status)"]
                                          + (overwrite ? ["--overwrite"] : []))
            },
            .method("Clear", input: "ss", output: "s", names: ["from", "to", "text"]) { [unowned self] message, error in
                let (from, to) = (BusSupport.readString(message) ?? "", BusSupport.readString(message) ?? "")
                return run(message, error, ["clear", "--from=\(from)", "--to=\(to)"])
            },
            .method("Plan", input: "asas", output: "s", names: ["prefer", "avoid", "json"]) { [unowned self] message, error in
                run(message, error, ["plan", "--json"] + Self.planFlags(message))
            },
            .method("WritePlan", input: "asas", output: "s", names: ["prefer", "avoid", "json"]) { [unowned self] message, error in
                run(message, error, ["plan", "--write", "--json"] + Self.planFlags(message))
            },
            .method("Chart", input: "s", output: "s", names: ["kind", "svg"]) { [unowned self] message, error in
                run(message, error, ["chart", BusSupport.readString(message) ?? "", "--out", "-"])
            },
            .method("Settings", input: "", output: "s", names: ["json"]) { [unowned self] message, error in
                run(message, error, ["config", "show", "--json"])
            },
            .method("Enroll", input: "s", output: "s", names: ["method", "text"]) { [unowned self] message, error in
                let method = BusSupport.readString(message) ?? ""
                guard let waits = Self.enrollWaits[method] else {
                    return BusSupport.fail(error, name: Self.errorPrefix + "InvalidInput",
                                           message: tr("\"\(method.prefix(40))\" is not a check-in method; use one of nfc, qr, wifi, gps, wired."))
                }
                return run(message, error, ["enroll", method] + waits)
            },
            .method("Detect", input: "s", output: "s", names: ["method", "found"]) { [unowned self] message, error in
                let method = BusSupport.readString(message) ?? ""
                guard Self.enrollWaits[method] != nil else {
                    return BusSupport.fail(error, name: Self.errorPrefix + "InvalidInput",
                                           message: tr("\"\(method.prefix(40))\" is not a check-in method; use one of nfc, qr, wifi, gps, wired."))
                }
                let found = hooks.detect(method) ?? ""
                return max(0, BusSupport.reply(to: message) { BusSupport.append($0, string: found) })
            },
            .method("Configure", input: "sv", output: "s", names: ["key", "value", "text"]) { [unowned self] message, error in
                let key = BusSupport.readString(message) ?? ""
                guard let value = BusSupport.readVariant(message) else {
                    return BusSupport.fail(error, name: Self.errorPrefix + "InvalidInput",
                                           message: tr("A value must be a string, a number, true or false, or a list of strings."))
                }
                switch hooks.configure(key, value) {
                case .success(let text): return max(0, BusSupport.reply(to: message) { BusSupport.append($0, string: text) })
                case .failure(let refusal): return BusSupport.fail(error, name: Self.errorPrefix + refusal.name, message: refusal.message)
                }
            },
        ]
    }

    /// `CheckIn(date, status, note)`: checked here, recorded through the pipeline, answered once committed.
    private func checkIn(_ message: OpaquePointer, _ error: BusErrorReply) -> Int32 {
        let dateText = BusSupport.readString(message) ?? "", statusText = BusSupport.readString(message) ?? ""
        let note = BusSupport.readString(message) ?? ""
        guard let date = LocalDate(dateText) else {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidDate",
                                   message: "\"\(dateText.prefix(40))\" is not a date; write it YYYY-MM-DD")
        }
        guard date.isSupported else {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidDate", message: "\(dateText) is \(LocalDate.unsupportedPhrase)")
        }
        guard let status = AttendanceStatus(named: statusText) else {
            let known = AttendanceStatus.allCases.map(\.rawValue).joined(separator: ", ")
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidStatus",
                                   message: "\"\(statusText.prefix(40))\" is not a status; use one of \(known)")
        }
        guard note.utf8.count <= 1000 else {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidNote", message: "the note is longer than 1000 bytes; shorten it")
        }
        let call = PendingCall(message), hooks = self.hooks
        Task {
            var failure: String?
            do {
                try await hooks.record(date, status, note.isEmpty ? nil : note, "the D-Bus interface")
            } catch {
                failure = "\(error)"
            }
            let outcome = failure
            let posted = post(.run { _ in
                if let failure = outcome {
                    call.fail(name: Self.errorPrefix + "Failed", message: failure)
                } else {
                    call.reply()
                }
            })
            if !posted { logger.info("the bus went away before CheckIn could be answered") }
        }
        return 1
    }

    /// Runs a command for a method and replies with what it printed, or with
    /// its sentence as the error its exit status names (`CommandOutcome`).
    /// `Plan`/`WritePlan`'s two string arrays as `plan`'s flags (checked by the command, as typed ones are).
    private static func planFlags(_ message: OpaquePointer) -> [String] {
        let prefer = BusSupport.readStrings(message) ?? [], avoid = BusSupport.readStrings(message) ?? []
        return (prefer.isEmpty ? [] : ["--prefer=" + prefer.joined(separator: ",")]) + avoid.map { "--avoid=" + $0 }
    }

    /// `Enroll(method)`: each method's `enroll`, its waits (a tap, a code, fixes) bounded by 20 s,
    /// within a client's default D-Bus timeout (25 s).
    static let enrollWaits: [String: [String]] = [
        "nfc": ["--timeout=20"], "qr": ["--timeout=20"], "gps": ["--seconds=20"], "wifi": [], "wired": [],
    ]

    private func run(_ message: OpaquePointer, _ error: BusErrorReply, _ arguments: [String]) -> Int32 {
        // D-Bus strings may be as long as a message; a command line may not.
        guard arguments.allSatisfy({ $0.utf8.count <= 1000 }) else {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidInput", message: tr("An argument is longer than 1000 bytes; shorten it."))
        }
        let call = PendingCall(message), hooks = self.hooks
        Task {
            let outcome = await hooks.command(arguments)
            let posted = post(.run { _ in
                switch outcome {
                case .printed(let text): call.reply { BusSupport.append($0, string: text) }
                case .refused(let refusal): call.fail(name: Self.errorPrefix + refusal.name, message: refusal.message)
                }
            })
            if !posted { logger.info("the bus went away before \(arguments[0]) could be answered") }
        }
        return 1
    }

    /// `Report(period)`: `report --json --period P`'s bytes ("" is the current period).
    private func report(_ message: OpaquePointer, _ error: BusErrorReply) -> Int32 {
        let text = BusSupport.readString(message) ?? ""
        guard let selector = text.isEmpty ? .current : PeriodSelector(text) else {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidPeriod",
                                   message: "\"\(text.prefix(40))\" is not current, previous or a date written YYYY-MM-DD")
        }
        if case .containing(let date) = selector, !date.isSupported {
            return BusSupport.fail(error, name: Self.errorPrefix + "InvalidPeriod", message: "\(text) is \(LocalDate.unsupportedPhrase)")
        }
        switch hooks.report(selector) {
        case .success(let json):
            return max(0, BusSupport.reply(to: message) { BusSupport.append($0, string: json) })
        case .failure(let failure):
            return BusSupport.fail(error, name: Self.errorPrefix + "Failed", message: failure.message)
        }
    }

}

extension DesktopBus {
    /// What `deskdays doctor` says about the desktop: whether the agent serves
    /// its interface, whether the notification server takes actions (answers
    /// from the reminder) and whether there is a tray. Read-only questions on
    /// a connection of its own; nothing is started by activation.
    public static func doctorFindings(environment: [String: String] = ProcessInfo.processInfo.environment) -> [DoctorFinding] {
        guard let address = DesktopNotifier.sessionAddress(environment: environment), BusSupport.isUnixOnly(address),
              case .success(let bus) = BusSupport.connect(address) else { return [] }
        defer { BusSupport.close(bus) }
        func owned(_ name: String) -> Bool {
            guard case .success(let reply) = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                             interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                                             build: { BusSupport.append($0, string: name) }) else { return false }
            defer { BusSupport.release(reply) }
            return (BusSupport.read(reply, "b", as: Int32.self, zero: 0) ?? 0) != 0
        }
        var findings: [DoctorFinding] = []
        findings.append(owned(name)
            ? DoctorFinding(.ok, tr("the agent serves \(name) on the session bus"))
            : DoctorFinding(.note, tr("nothing serves \(name) on the session bus"),
                             fix: tr("start the agent in your desktop session (`systemctl --user start deskdays`)")))
        if owned(notifications),
           case .success(let reply) = BusSupport.call(bus, destination: notifications, path: notificationsPath,
                                                      interface: notifications, member: "GetCapabilities") {
            defer { BusSupport.release(reply) }
            let capabilities = BusSupport.readStrings(reply) ?? []
            findings.append(capabilities.contains("actions")
                ? DoctorFinding(.ok, tr("the notification server takes actions: the reminder can be answered from it"))
                : DoctorFinding(.note, tr("the notification server shows no buttons (no `actions` capability): the reminder names the command instead")))
        } else {
            findings.append(DoctorFinding(.note, tr("no notification server runs now (it may start when the reminder comes)")))
        }
        findings.append(owned(watcher)
            ? DoctorFinding(.ok, tr("the desktop has a tray (a StatusNotifierWatcher): the icon is shown unless [desktop] tray = false"))
            : DoctorFinding(.note, tr("the desktop has no tray (no StatusNotifierWatcher): no icon"),
                             fix: tr("on GNOME, enable the AppIndicator extension; on sway or Hyprland, add waybar's \"tray\" module")))

        return findings
    }
}
