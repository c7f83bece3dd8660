import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import DeskDaysControl
import DeskDaysCore
import Foundation
import Logging
import Synchronization
import SystemBus

/// What the session-bus interface and the tray show: the current period's
/// figures and today's status.
struct DesktopSummary: Sendable, Equatable {
    var today: LocalDate
    var period: String
    /// `met`, `on_track`, `behind` or `impossible`, as `report --json` writes it.
    var status: String
    var office: Int
    var required: Int
    var remaining: Int
    /// `office / elapsed`; -1 while no workday of the period has elapsed.
    var compliance: Double
    /// Today's resolved status; "" while nothing is recorded.
    var todayStatus: String
    var workday: Bool

    init(report: Report, todayStatus: AttendanceStatus?, workday: Bool) {
        today = report.today
        period = report.period.label
        status = report.status.rawValue
        office = report.office
        required = report.required
        remaining = report.remainingRequired
        compliance = report.complianceToDate.map { ($0 * 10_000).rounded() / 10_000 } ?? -1
        self.todayStatus = todayStatus?.rawValue ?? ""
        self.workday = workday
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
    static let name = "io.github.deskdays.DeskDays1"
    static let path = "/io/github/deskdays/DeskDays1"
    static let interface = "io.github.deskdays.DeskDays1"
    /// Error names: `…Error.InvalidDate`, `InvalidStatus`, `InvalidPeriod`, `Failed`.
    static let errorPrefix = "io.github.deskdays.DeskDays1.Error."

    static let notifications = "org.freedesktop.Notifications"
    static let notificationsPath = "/org/freedesktop/Notifications"
    static let watcher = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"
    static let itemPath = "/StatusNotifierItem"
    static let itemInterface = "org.kde.StatusNotifierItem"
    static let menuPath = "/MenuBar"
    static let menuInterface = "com.canonical.dbusmenu"

    /// The reminder's answers: action keys (never translated) and their statuses and labels.
    static let answers: [(key: String, status: AttendanceStatus, label: String)] = [
        ("office", .office, "In the office"), ("remote", .remote, "Remote"), ("off", .vacation, "Day off"),
    ]

    /// What the bus side needs from the agent; each is safe to call from any thread.
    struct Hooks: Sendable {
        /// The figures now (read from the store).
        var summary: @Sendable () throws -> DesktopSummary
        /// `report --json --period P`'s bytes.
        var report: @Sendable (PeriodSelector) -> Result<String, ControlProtocol.Failure>
        /// Records a manual status through the pipeline; `via` names the way in for the log.
        var record: @Sendable (_ date: LocalDate, _ status: AttendanceStatus, _ note: String?, _ via: String) async throws -> Void
        /// The agent's today.
        var today: @Sendable () -> LocalDate
        /// Writes the HTML report and opens it (logs what happened).
        var openReport: @Sendable () -> Void
        /// No reminder today.
        var pauseReminders: @Sendable (LocalDate) -> Void
    }

    /// A reminder to show.
    struct Reminder: Sendable {
        var date: LocalDate
        var title: String
        /// Without the `actions` capability: names the command.
        var plainBody: String
        /// With it: asks the question the actions answer.
        var answerBody: String
    }

    private enum Command: Sendable {
        case run(@Sendable (DesktopBus) -> Void)
        case remind(Reminder)
    }

    /// What other threads share with the bus thread.
    private struct Shared {
        /// Whether commands are taken: from the start until a connection fails, and again once one works.
        var accepting: Bool
        var queue: [Command] = []
    }

    let address: String?
    let tray: Bool
    private let hooks: Hooks
    private let notifier: DesktopNotifier
    private let logger: Logger
    private let shared: Mutex<Shared>
    private let wake = BusWake()

    // MARK: Bus thread only

    private var bus: OpaquePointer?
    private var main: BusObject?
    private var item: BusObject?
    private var menu: BusObject?
    private var slots: [OpaquePointer] = []
    private var summary: DesktopSummary?
    /// The reminders on screen, by notification id.
    private var shown: [UInt32: ShownReminder] = [:]
    private var menuRevision: UInt32 = 1
    private var pausedOn: LocalDate?

    private struct ShownReminder {
        var date: LocalDate
        var answered = false
    }

    init(address: String?, tray: Bool, hooks: Hooks, notifier: DesktopNotifier, logger: Logger) {
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
    func remind(_ reminder: Reminder) async {
        if !post(.remind(reminder)) {
            await notifier.notify(title: reminder.title, body: reminder.plainBody)
        }
    }

    /// Whether a connection takes work (else there is nothing to announce to).
    var isServing: Bool { shared.withLock { $0.accepting } }

    /// The current answer may have changed: announce what did.
    func update(_ summary: DesktopSummary) {
        _ = post(.run { $0.apply(summary) })
    }

    /// Queues work for the bus thread; false when there is no connection to do it on.
    private func post(_ command: Command) -> Bool {
        let accepted = shared.withLock { shared -> Bool in
            guard shared.accepting else { return false }
            shared.queue.append(command)
            return true
        }
        if accepted { wake.wake() }
        return accepted
    }

    /// Serves the session bus until the calling task is cancelled, or at once when there is none.
    func run() async {
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
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    self.loop(address: address, stop: stop)
                    done.resume()
                }
                thread.name = "deskdays-desktop"
                thread.start()
            }
        } onCancel: {
            stop.stop()
        }
    }

    /// No more commands; reminders still queued go to `DesktopNotifier` (unless the agent is stopping).
    private func stopAccepting(stopped: Bool) {
        let left = shared.withLock { shared -> [Command] in
            shared.accepting = false
            defer { shared.queue = [] }
            return shared.queue
        }
        guard !stopped else { return }
        for case .remind(let reminder) in left {
            let notifier = self.notifier
            Task { await notifier.notify(title: reminder.title, body: reminder.plainBody) }
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
            slots.forEach { sd_bus_slot_unref($0) }
            slots = []
            shown = [:]
            self.bus = nil
            // No flush: a hung notification daemon must not hold up a stop (the bus daemon releases the name on close).
            sd_bus_close_unref(bus)
        }
        summary = try? hooks.summary()
        if ownName(bus) {
            watchNotifications(bus)
            if tray { showTray(bus) }
        } else {
            // Still the reminder's answers, on this connection; the interface and the icon are the owner's.
            watchNotifications(bus)
        }
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
                }
            }
        }
        switch end {
        case .stopped, .done, .timedOut: return .stopped
        case .lost(let reason): return .lost(reason)
        }
    }

    /// Exports the interface and requests the name; false when another agent owns it.
    private func ownName(_ bus: OpaquePointer) -> Bool {
        do {
            main = try BusObject(bus: bus, path: Self.path, interface: Self.interface, members: mainMembers())
        } catch {
            logger.warning("\(error.reason); no D-Bus interface")
            return false
        }
        let result = sd_bus_request_name(bus, Self.name, 0)
        guard result >= 0 else {
            main = nil
            if result == -EEXIST {
                logger.notice("another DeskDays agent owns \(Self.name) on the session bus; this one serves no D-Bus interface or tray icon")
            } else {
                logger.warning("cannot own \(Self.name) on the session bus (\(BusSupport.describe(result))); no D-Bus interface")
            }
            return false
        }
        logger.info("serving \(Self.name) on the session bus")
        return true
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
        guard let bus, let main, old != fresh else { return }
        let changed = Self.propertyNames.filter { name in old.map { Self.value(name, $0) != Self.value(name, fresh) } ?? true }
        main.emitPropertiesChanged(on: bus, changed)
        if let item {
            let before = old.map(TrayLook.init), after = TrayLook(fresh)
            if before?.icon != after.icon { item.emit(on: bus, signal: "NewIcon") }
            if before?.tooltip != after.tooltip || before?.title != after.title { item.emit(on: bus, signal: "NewToolTip") }
            if before?.status != after.status {
                item.emit(on: bus, signal: "NewStatus") { BusSupport.append($0, string: after.status) }
            }
        }
        if old?.today != fresh.today, pausedOn != nil {
            pausedOn = nil
            menuChanged()
        }
    }

    // MARK: - io.github.deskdays.DeskDays1

    static let propertyNames = ["Today", "Period", "Status", "Office", "Required", "Remaining", "Compliance", "TodayStatus"]

    /// A property's value as text, to see which changed.
    private static func value(_ name: String, _ summary: DesktopSummary) -> String {
        switch name {
        case "Today": return summary.today.description
        case "Period": return summary.period
        case "Status": return summary.status
        case "Office": return "\(summary.office)"
        case "Required": return "\(summary.required)"
        case "Remaining": return "\(summary.remaining)"
        case "Compliance": return "\(summary.compliance)"
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
            text("Status", \.status),
            count("Office", \.office),
            count("Required", \.required),
            count("Remaining", \.remaining),
            .property("Compliance", signature: "d", emitsChange: true) { [unowned self] reply in
                BusSupport.append(reply, "d", summary?.compliance ?? -1)
            },
            text("TodayStatus", \.todayStatus),
            .method("CheckIn", input: "sss", output: "", names: ["date", "status", "note"]) { [unowned self] message, error in
                checkIn(message, error)
            },
            .method("Report", input: "s", output: "s", names: ["period", "json"]) { [unowned self] message, error in
                report(message, error)
            },
        ]
    }

    /// An sd-bus message kept for a later reply.
    private struct PendingCall: @unchecked Sendable {
        let message: OpaquePointer
    }

    /// `CheckIn(date, status, note)`: checked here, recorded through the pipeline, answered once committed.
    private func checkIn(_ message: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
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
        sd_bus_message_ref(message)
        let call = PendingCall(message: message), hooks = self.hooks
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
                    BusSupport.replyError(to: call.message, name: Self.errorPrefix + "Failed", message: failure)
                } else {
                    BusSupport.reply(to: call.message)
                }
                sd_bus_message_unref(call.message)
            })
            if !posted { logger.info("the bus went away before CheckIn could be answered") }
        }
        return 1
    }

    /// `Report(period)`: `report --json --period P`'s bytes ("" is the current period).
    private func report(_ message: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
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

    // MARK: - The reminder

    /// A reply callback's closure, kept alive until the reply (or the timeout) comes.
    private final class ReplyBox {
        let body: (OpaquePointer) -> Void
        init(_ body: @escaping (OpaquePointer) -> Void) { self.body = body }
    }

    /// Calls a method without waiting; `then` gets the reply or the error (sd-bus's timeout included).
    private func callAsync(_ bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
                           autoStart: Bool = true, build: (OpaquePointer) -> Int32 = { _ in 0 },
                           then: @escaping (OpaquePointer) -> Void) -> String? {
        var created: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &created, destination, path, interface, member)
        guard result >= 0, let message = created else { return BusSupport.describe(result) }
        defer { sd_bus_message_unref(message) }
        if !autoStart { result = sd_bus_message_set_auto_start(message, 0) }
        if result >= 0 { result = build(message) }
        guard result >= 0 else { return BusSupport.describe(result) }
        let box = Unmanaged.passRetained(ReplyBox(then)).toOpaque()
        // A floating slot: the bus keeps the call until its reply or timeout; closing the bus drops it.
        result = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let userdata else { return 0 }
            let box = Unmanaged<ReplyBox>.fromOpaque(userdata).takeRetainedValue()
            if let reply { box.body(reply) }
            return 1
        }, box, DesktopNotifier.timeoutSeconds * 1_000_000)
        guard result >= 0 else {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            return BusSupport.describe(result)
        }
        return nil
    }

    /// Asks the server for its capabilities, then shows the reminder: with
    /// the actions `office`, `remote` and `off` where it lists `actions`, else
    /// with a body naming the command (mako, minimal daemons).
    private func showReminder(_ reminder: Reminder) {
        guard let bus else { return }
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "GetCapabilities") { [self] reply in
            var capabilities: [String] = []
            if sd_bus_message_is_method_error(reply, nil) == 0,
               sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 {
                while let capability = BusSupport.readString(reply) { capabilities.append(capability) }
                sd_bus_message_exit_container(reply)
            }
            notify(reminder, actions: capabilities.contains("actions"))
        }
        if let failure { notifier.complain("the desktop notification could not be shown (\(failure))") }
    }

    private func notify(_ reminder: Reminder, actions: Bool) {
        guard let bus else { return }
        let pairs = actions ? Self.answers.flatMap { [$0.key, $0.label] } : []
        let body = actions ? reminder.answerBody : reminder.plainBody
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "Notify", build: { message in
            DesktopNotifier.appendNotify(to: message, title: reminder.title, body: body, actions: pairs)
        }) { [self] reply in
            if sd_bus_message_is_method_error(reply, nil) != 0 {
                notifier.complain("the desktop notification could not be shown (\(BusSupport.errorText(reply)))")
                return
            }
            guard let id = BusSupport.read(reply, "u", as: UInt32.self, zero: 0) else {
                notifier.complain("the desktop notification could not be shown (the notification daemon's answer was not an id)")
                return
            }
            shown[id] = ShownReminder(date: reminder.date)
            let how = actions ? " with the answers office, remote and off" : "; the server takes no actions, so it names the command"
            logger.info("reminder shown as a desktop notification (id \(id))\(how)")
        }
        if let failure { notifier.complain("the desktop notification could not be shown (\(failure))") }
    }

    /// Follows `ActionInvoked` and `NotificationClosed` from the notification server.
    private func watchNotifications(_ bus: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        if sd_bus_match_signal_async(bus, &slot, Self.notifications, Self.notificationsPath, Self.notifications,
                                     "ActionInvoked", { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let desktop = Unmanaged<DesktopBus>.fromOpaque(userdata).takeUnretainedValue()
            if let id = BusSupport.read(message, "u", as: UInt32.self, zero: 0), let key = BusSupport.readString(message) {
                desktop.actionInvoked(id: id, key: key)
            }
            return 0
        }, nil, me) >= 0, let slot { slots.append(slot) }
        slot = nil
        if sd_bus_match_signal_async(bus, &slot, Self.notifications, Self.notificationsPath, Self.notifications,
                                     "NotificationClosed", { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let desktop = Unmanaged<DesktopBus>.fromOpaque(userdata).takeUnretainedValue()
            if let id = BusSupport.read(message, "u", as: UInt32.self, zero: 0),
               let reason = BusSupport.read(message, "u", as: UInt32.self, zero: 0) {
                desktop.notificationClosed(id: id, reason: reason)
            }
            return 0
        }, nil, me) >= 0, let slot { slots.append(slot) }
    }

    /// An answer from the reminder: recorded once, through the pipeline, then confirmed in its place.
    private func actionInvoked(id: UInt32, key: String) {
        guard var reminder = shown[id], !reminder.answered,
              let answer = Self.answers.first(where: { $0.key == key }) else { return }
        reminder.answered = true
        shown[id] = reminder
        let hooks = self.hooks, date = reminder.date
        Task {
            do {
                try await hooks.record(date, answer.status, nil, "the reminder")
                _ = post(.run { $0.confirm(replacing: id, date: date, label: answer.label) })
            } catch {
                logger.error("could not record the reminder's answer for \(date): \(error)")
            }
        }
    }

    /// Replaces the reminder by a short confirmation (a new notification when the server has closed it meanwhile).
    private func confirm(replacing id: UInt32, date: LocalDate, label: String) {
        guard let bus else { return }
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "Notify", build: { message in
            DesktopNotifier.appendNotify(to: message, title: "DeskDays: recorded", body: "\(label) on \(date).", replaces: id)
        }) { [self] reply in
            if sd_bus_message_is_method_error(reply, nil) != 0 {
                logger.info("the confirmation could not be shown (\(BusSupport.errorText(reply)))")
            } else {
                logger.info("the reminder for \(date) was replaced by its confirmation")
            }
        }
        if let failure { logger.info("the confirmation could not be shown (\(failure))") }
    }

    /// `CloseNotification` for a reminder answered some other way.
    private func withdraw(_ id: UInt32) {
        guard let bus else { return }
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath, interface: Self.notifications,
                                member: "CloseNotification", autoStart: false,
                                build: { BusSupport.append($0, "u", id) }) { [self] reply in
            if sd_bus_message_is_method_error(reply, nil) == 0 { logger.info("the reminder was withdrawn: today is answered") }
        }
        if let failure { logger.debug("cannot withdraw the reminder (\(failure))") }
    }

    /// Closed without an answer: it counts as ignored (`ReminderStreak`: no check-in that day after it).
    private func notificationClosed(id: UInt32, reason: UInt32) {
        guard let reminder = shown.removeValue(forKey: id), !reminder.answered else { return }
        let how = [1: "expired", 2: "dismissed"][reason] ?? "closed"
        logger.notice("the reminder for \(reminder.date) was \(how) without an answer; it counts as ignored")
    }

    // MARK: - The tray icon

    /// How the icon looks for a summary (freedesktop icon names, so every theme has them).
    struct TrayLook: Equatable {
        var status: String
        var icon: String
        var title: String
        var tooltip: String

        init(_ summary: DesktopSummary) {
            let unanswered = summary.workday && summary.todayStatus.isEmpty && summary.remaining > 0
            status = unanswered ? "NeedsAttention" : "Active"
            switch summary.status {
            case "met": icon = "emblem-default"
            case "behind", "impossible": icon = "dialog-warning"
            default: icon = "x-office-calendar"
            }
            let words = ["met": "target met", "on_track": "on track", "behind": "behind", "impossible": "target out of reach"]
            title = "DeskDays: " + (words[summary.status] ?? summary.status)
            tooltip = "\(summary.office) of \(summary.required) office days in \(summary.period); \(summary.remaining) more needed. "
                + "Today: \(summary.todayStatus.isEmpty ? "no answer yet" : summary.todayStatus)."
        }
    }

    /// Exports the item and its menu, follows the watcher's name and registers with it.
    private func showTray(_ bus: OpaquePointer) {
        do {
            item = try BusObject(bus: bus, path: Self.itemPath, interface: Self.itemInterface, members: itemMembers())
            menu = try BusObject(bus: bus, path: Self.menuPath, interface: Self.menuInterface, members: menuMembers())
        } catch {
            logger.info("\(error.reason); no tray icon")
            item = nil
            menu = nil
            return
        }
        var slot: OpaquePointer?
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.watcher)'"
        if sd_bus_add_match_async(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata, let name = BusSupport.readString(message),
                  BusSupport.readString(message) != nil, let owner = BusSupport.readString(message) else { return 0 }
            let desktop = Unmanaged<DesktopBus>.fromOpaque(userdata).takeUnretainedValue()
            if name == DesktopBus.watcher {
                if owner.isEmpty { desktop.logger.debug("the StatusNotifierWatcher left the session bus") } else { desktop.registerTray() }
            }
            return 0
        }, nil, Unmanaged.passUnretained(self).toOpaque()) >= 0, let slot { slots.append(slot) }
        registerTray()
    }

    /// `RegisterStatusNotifierItem` with our unique name (the item is at /StatusNotifierItem); no watcher is logged at debug only.
    private func registerTray() {
        guard let bus, item != nil else { return }
        var unique: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &unique) >= 0, let unique else { return }
        let service = String(cString: unique)
        let failure = callAsync(bus, destination: Self.watcher, path: Self.watcherPath, interface: Self.watcher,
                                member: "RegisterStatusNotifierItem", autoStart: false,
                                build: { BusSupport.append($0, string: service) }) { [self] reply in
            if sd_bus_message_is_method_error(reply, nil) != 0 {
                let name = sd_bus_message_get_error(reply)?.pointee.name.map { String(cString: $0) } ?? ""
                if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    logger.debug("no StatusNotifierWatcher on the session bus; no tray icon until one comes")
                } else {
                    logger.info("the StatusNotifierWatcher refused the tray icon (\(BusSupport.errorText(reply)))")
                }
            } else {
                logger.info("tray icon registered with the StatusNotifierWatcher")
            }
        }
        if let failure { logger.debug("cannot register the tray icon (\(failure))") }
    }

    private func itemMembers() -> [BusObject.Member] {
        func text(_ name: String, _ value: @escaping () -> String) -> BusObject.Member {
            .property(name, signature: "s", emitsChange: false) { BusSupport.append($0, string: value()) }
        }
        func pixmaps(_ name: String) -> BusObject.Member {
            .property(name, signature: "a(iiay)", emitsChange: false) { BusSupport.container($0, "a", "(iiay)") { 0 } }
        }
        let look: () -> TrayLook? = { [unowned self] in summary.map(TrayLook.init) }
        let ignore: BusObject.Method = { message, _ in max(0, BusSupport.reply(to: message)) }
        return [
            text("Category") { "ApplicationStatus" },
            text("Id") { "deskdays" },
            text("Title") { "DeskDays" },
            text("Status") { look()?.status ?? "Active" },
            .property("WindowId", signature: "i", emitsChange: false) { BusSupport.append($0, "i", Int32(0)) },
            text("IconName") { look()?.icon ?? "x-office-calendar" },
            pixmaps("IconPixmap"),
            text("OverlayIconName") { "" },
            pixmaps("OverlayIconPixmap"),
            text("AttentionIconName") { "appointment-soon" },
            pixmaps("AttentionIconPixmap"),
            text("AttentionMovieName") { "" },
            .property("ToolTip", signature: "(sa(iiay)ss)", emitsChange: false) { reply in
                let shown = look()
                return BusSupport.container(reply, "r", "sa(iiay)ss") {
                    BusSupport.steps([
                        { BusSupport.append(reply, string: shown?.icon ?? "x-office-calendar") },
                        { BusSupport.container(reply, "a", "(iiay)") { 0 } },
                        { BusSupport.append(reply, string: shown?.title ?? "DeskDays") },
                        { BusSupport.append(reply, string: shown?.tooltip ?? "") },
                    ])
                }
            },
            .property("ItemIsMenu", signature: "b", emitsChange: false) { BusSupport.append($0, "b", Int32(0)) },
            .property("Menu", signature: "o", emitsChange: false) { reply in
                Self.menuPath.withCString { sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "o")), $0) }
            },
            .method("ContextMenu", input: "ii", output: "", names: ["x", "y"], ignore),
            .method("Activate", input: "ii", output: "", names: ["x", "y"]) { [unowned self] message, _ in
                perform(MenuItem.openReport.rawValue)
                return max(0, BusSupport.reply(to: message))
            },
            .method("SecondaryActivate", input: "ii", output: "", names: ["x", "y"], ignore),
            .method("Scroll", input: "is", output: "", names: ["delta", "orientation"], ignore),
            .signal("NewTitle", signature: "", names: []),
            .signal("NewIcon", signature: "", names: []),
            .signal("NewAttentionIcon", signature: "", names: []),
            .signal("NewOverlayIcon", signature: "", names: []),
            .signal("NewToolTip", signature: "", names: []),
            .signal("NewStatus", signature: "s", names: ["status"]),
        ]
    }

    // MARK: - The menu (com.canonical.dbusmenu)

    /// The menu's items; their ids are the dbusmenu ids (0 is the root).
    enum MenuItem: Int32, CaseIterable {
        case checkIn = 1, remoteToday, openReport, separator, pause

        var label: String {
            switch self {
            case .checkIn: "Check in now"
            case .remoteToday: "Remote today"
            case .openReport: "Open report"
            case .separator: ""
            case .pause: "Pause reminders today"
            }
        }
    }

    /// An item's properties as (name, D-Bus type, append).
    private func properties(of id: Int32) -> [(String, String, (OpaquePointer) -> Int32)]? {
        if id == 0 { return [("children-display", "s", { BusSupport.append($0, string: "submenu") })] }
        guard let item = MenuItem(rawValue: id) else { return nil }
        if item == .separator { return [("type", "s", { BusSupport.append($0, string: "separator") })] }
        let enabled = item != .pause || pausedOn != hooks.today()
        return [("label", "s", { BusSupport.append($0, string: item.label) }),
                ("enabled", "b", { BusSupport.append($0, "b", Int32(enabled ? 1 : 0)) }),
                ("visible", "b", { BusSupport.append($0, "b", Int32(1)) })]
    }

    /// `a{sv}` of an item's properties.
    private func appendProperties(_ message: OpaquePointer, _ id: Int32) -> Int32 {
        BusSupport.container(message, "a", "{sv}") {
            BusSupport.steps((properties(of: id) ?? []).map { name, type, value in
                { BusSupport.container(message, "e", "sv") {
                    BusSupport.steps([{ BusSupport.append(message, string: name) },
                                      { BusSupport.container(message, "v", type) { value(message) } }])
                } }
            })
        }
    }

    /// `(ia{sv}av)`: the item and, for the root when `children`, every item below it.
    private func appendLayout(_ message: OpaquePointer, _ id: Int32, children: Bool) -> Int32 {
        BusSupport.container(message, "r", "ia{sv}av") {
            BusSupport.steps([
                { BusSupport.append(message, "i", id) },
                { self.appendProperties(message, id) },
                { BusSupport.container(message, "a", "v") {
                    BusSupport.steps((id == 0 && children ? MenuItem.allCases.map(\.rawValue) : []).map { child in
                        { BusSupport.container(message, "v", "(ia{sv}av)") { self.appendLayout(message, child, children: false) } }
                    })
                } },
            ])
        }
    }

    private func menuMembers() -> [BusObject.Member] {
        let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        return [
            .property("Version", signature: "u", emitsChange: false) { BusSupport.append($0, "u", UInt32(3)) },
            .property("TextDirection", signature: "s", emitsChange: false) { BusSupport.append($0, string: "ltr") },
            .property("Status", signature: "s", emitsChange: false) { BusSupport.append($0, string: "normal") },
            .property("IconThemePath", signature: "as", emitsChange: false) { BusSupport.container($0, "a", "s") { 0 } },
            .method("GetLayout", input: "iias", output: "u(ia{sv}av)",
                    names: ["parentId", "recursionDepth", "propertyNames", "revision", "layout"]) { [unowned self] message, error in
                let parent = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? 0
                let depth = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                guard properties(of: parent) != nil else {
                    return BusSupport.fail(error, name: invalid, message: "there is no menu item \(parent)")
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.steps([{ BusSupport.append(reply, "u", self.menuRevision) },
                                      { self.appendLayout(reply, parent, children: depth != 0) }])
                })
            },
            .method("GetGroupProperties", input: "aias", output: "a(ia{sv})",
                    names: ["ids", "propertyNames", "properties"]) { [unowned self] message, _ in
                var ids: [Int32] = []
                if sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "i") > 0 {
                    while let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) { ids.append(id) }
                    sd_bus_message_exit_container(message)
                }
                if ids.isEmpty { ids = [0] + MenuItem.allCases.map(\.rawValue) }
                let known = ids.filter { properties(of: $0) != nil }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "a", "(ia{sv})") {
                        BusSupport.steps(known.map { id in
                            { BusSupport.container(reply, "r", "ia{sv}") {
                                BusSupport.steps([{ BusSupport.append(reply, "i", id) }, { self.appendProperties(reply, id) }])
                            } }
                        })
                    }
                })
            },
            .method("GetProperty", input: "is", output: "v", names: ["id", "name", "value"]) { [unowned self] message, error in
                let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                let name = BusSupport.readString(message) ?? ""
                guard let property = properties(of: id)?.first(where: { $0.0 == name }) else {
                    return BusSupport.fail(error, name: invalid, message: "menu item \(id) has no property \(name.prefix(40))")
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "v", property.1) { property.2(reply) }
                })
            },
            .method("Event", input: "isvu", output: "", names: ["id", "eventId", "data", "timestamp"]) { [unowned self] message, error in
                let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                let event = BusSupport.readString(message) ?? ""
                guard properties(of: id) != nil else {
                    return BusSupport.fail(error, name: invalid, message: "there is no menu item \(id)")
                }
                if event == "clicked" { perform(id) }
                return max(0, BusSupport.reply(to: message))
            },
            .method("EventGroup", input: "a(isvu)", output: "ai", names: ["events", "idErrors"]) { [unowned self] message, _ in
                var unknown: [Int32] = []
                if sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(isvu)") > 0 {
                    while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), "isvu") > 0 {
                        let id = BusSupport.read(message, "i", as: Int32.self, zero: 0) ?? -1
                        let event = BusSupport.readString(message) ?? ""
                        sd_bus_message_skip(message, "vu")
                        sd_bus_message_exit_container(message)
                        if properties(of: id) == nil { unknown.append(id) } else if event == "clicked" { perform(id) }
                    }
                    sd_bus_message_exit_container(message)
                }
                return max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.container(reply, "a", "i") { BusSupport.steps(unknown.map { id in { BusSupport.append(reply, "i", id) } }) }
                })
            },
            .method("AboutToShow", input: "i", output: "b", names: ["id", "needUpdate"]) { message, _ in
                max(0, BusSupport.reply(to: message) { BusSupport.append($0, "b", Int32(0)) })
            },
            .method("AboutToShowGroup", input: "ai", output: "aiai", names: ["ids", "updatesNeeded", "idErrors"]) { message, _ in
                max(0, BusSupport.reply(to: message) { reply in
                    BusSupport.steps([{ BusSupport.container(reply, "a", "i") { 0 } }, { BusSupport.container(reply, "a", "i") { 0 } }])
                })
            },
            .signal("ItemsPropertiesUpdated", signature: "a(ia{sv})a(ias)", names: ["updatedProps", "removedProps"]),
            .signal("LayoutUpdated", signature: "ui", names: ["revision", "parent"]),
            .signal("ItemActivationRequested", signature: "iu", names: ["id", "timestamp"]),
        ]
    }

    /// What a menu item (or a click on the icon) does.
    private func perform(_ id: Int32) {
        guard let item = MenuItem(rawValue: id) else { return }
        let hooks = self.hooks, logger = self.logger
        switch item {
        case .checkIn, .remoteToday:
            let status: AttendanceStatus = item == .checkIn ? .office : .remote
            Task {
                do {
                    try await hooks.record(hooks.today(), status, nil, "the tray menu")
                } catch {
                    logger.error("could not record \(status.rawValue) from the tray menu: \(error)")
                }
            }
        case .openReport:
            Thread.detachNewThread { hooks.openReport() }
        case .pause:
            let today = hooks.today()
            hooks.pauseReminders(today)
            pausedOn = today
            menuChanged()
        case .separator:
            break
        }
    }

    /// The layout changed (an item was enabled or disabled): a new revision and `LayoutUpdated`.
    private func menuChanged() {
        menuRevision += 1
        guard let bus, let menu else { return }
        let revision = menuRevision
        menu.emit(on: bus, signal: "LayoutUpdated") { message in
            BusSupport.steps([{ BusSupport.append(message, "u", revision) }, { BusSupport.append(message, "i", Int32(0)) }])
        }
    }
}

/// The day the tray menu's "Pause reminders today" was chosen for (kept in
/// memory: a restarted agent has already given or not given that day's reminder).
final class ReminderPause: Sendable {
    private let day = Mutex<LocalDate?>(nil)

    func pause(_ date: LocalDate) { day.withLock { $0 = date } }

    func isPaused(_ date: LocalDate) -> Bool { day.withLock { $0 == date } }
}

/// Opens a file with the desktop's default application: `xdg-open FILE`.
/// Under systemd (`INVOCATION_ID` set) it goes through `systemd-run --user
/// --collect --quiet`, so the browser runs in a unit of its own instead of
/// inheriting the agent's sandbox (MemoryDenyWriteExecute would kill a JIT
/// browser, and RestrictAddressFamilies would cut it off the network).
enum DesktopOpener {
    static func open(_ path: String, environment: [String: String], logger: Logger) {
        let underSystemd = !(environment["INVOCATION_ID"] ?? "").isEmpty
        let arguments = (underSystemd ? ["systemd-run", "--user", "--collect", "--quiet", "--"] : []) + ["xdg-open", path]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            logger.warning("cannot open the report: \(arguments[0]) could not be started (\(String(cString: strerror(spawned)))); install xdg-utils")
            return
        }
        logger.info("report written to \(path) and opened with \(arguments[0])")
        // Reaped on this (detached) thread, so no zombie stays behind.
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        if status != 0 { logger.info("\(arguments[0]) ended with status \(status >> 8) opening the report") }
    }
}

extension DesktopBus {
    /// What `deskdays doctor` says about the desktop: whether the agent serves
    /// its interface, whether the notification server takes actions (answers
    /// from the reminder) and whether there is a tray. Read-only questions on
    /// a connection of its own; nothing is started by activation.
    public static func doctorFindings(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Doctor.Finding] {
        guard let address = DesktopNotifier.sessionAddress(environment: environment), BusSupport.isUnixOnly(address),
              case .success(let bus) = BusSupport.connect(address) else { return [] }
        defer { sd_bus_close_unref(bus) }
        func owned(_ name: String) -> Bool {
            guard case .success(let reply) = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                             interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                                             build: { BusSupport.append($0, string: name) }) else { return false }
            defer { sd_bus_message_unref(reply) }
            return (BusSupport.read(reply, "b", as: Int32.self, zero: 0) ?? 0) != 0
        }
        var findings: [Doctor.Finding] = []
        findings.append(owned(name)
            ? Doctor.Finding(.ok, "the agent serves \(name) on the session bus")
            : Doctor.Finding(.note, "nothing serves \(name) on the session bus",
                             fix: "start the agent in your desktop session (`systemctl --user start deskdays`)"))
        if owned(notifications),
           case .success(let reply) = BusSupport.call(bus, destination: notifications, path: notificationsPath,
                                                      interface: notifications, member: "GetCapabilities") {
            defer { sd_bus_message_unref(reply) }
            var capabilities: [String] = []
            if sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 {
                while let capability = BusSupport.readString(reply) { capabilities.append(capability) }
                sd_bus_message_exit_container(reply)
            }
            findings.append(capabilities.contains("actions")
                ? Doctor.Finding(.ok, "the notification server takes actions: the reminder can be answered from it")
                : Doctor.Finding(.note, "the notification server shows no buttons (no `actions` capability): the reminder names the command instead"))
        } else {
            findings.append(Doctor.Finding(.note, "no notification server runs now (it may start when the reminder comes)"))
        }
        findings.append(owned(watcher)
            ? Doctor.Finding(.ok, "the desktop has a tray (a StatusNotifierWatcher): the icon is shown unless [desktop] tray = false")
            : Doctor.Finding(.note, "the desktop has no tray (no StatusNotifierWatcher): no icon",
                             fix: "on GNOME, enable the AppIndicator extension; on sway or Hyprland, add waybar's \"tray\" module"))
        return findings
    }
}
