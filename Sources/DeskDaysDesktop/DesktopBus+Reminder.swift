import Localization
import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import DeskDaysCore
import DeskDaysReports
import Foundation
import Logging
import Synchronization
import SystemBus

/// The reminder as a notification whose actions answer it (see `DesktopBus`).
extension DesktopBus {
    /// A reply callback's closure, kept alive until the reply (or the timeout) comes.
    package final class ReplyBox {
        let body: (OpaquePointer) -> Void
        init(_ body: @escaping (OpaquePointer) -> Void) { self.body = body }
    }

    /// Calls a method without waiting; `then` gets the reply or the error (sd-bus's timeout included).
    package func callAsync(_ bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
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
    package func showReminder(_ reminder: Reminder) {
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
            // Answers on it: it stays until answered or dismissed (expire_timeout 0), so a
            // server's default timeout (dunst: 10 s) neither hides the question nor counts it as ignored.
            DesktopNotifier.appendNotify(to: message, title: reminder.title, body: body, actions: pairs,
                                         expires: pairs.isEmpty ? -1 : 0)
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
    package func watchNotifications(_ bus: OpaquePointer) {
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
    package func actionInvoked(id: UInt32, key: String) {
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
        // The date as the user's LC_TIME writes it ("Nov 18, 2026" under C, "18.11.2026" in German).
        let shownDate = ReportLocale(environment: ProcessInfo.processInfo.environment).date(date)

        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "Notify", build: { message in
            DesktopNotifier.appendNotify(to: message, title: tr("DeskDays: recorded"), body: tr("\(label) on \(shownDate)."), replaces: id)
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
    package func withdraw(_ id: UInt32) {
        guard let bus else { return }
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath, interface: Self.notifications,
                                member: "CloseNotification", autoStart: false,
                                build: { BusSupport.append($0, "u", id) }) { [self] reply in
            if sd_bus_message_is_method_error(reply, nil) == 0 { logger.info("the reminder was withdrawn: today is answered") }
        }
        if let failure { logger.debug("cannot withdraw the reminder (\(failure))") }
    }

    /// Closed without an answer: dismissed by the user (reason 2), it counts
    /// as ignored (`ReminderStreak`); expired or closed by the server, it does not.
    package func notificationClosed(id: UInt32, reason: UInt32) {
        guard let reminder = shown.removeValue(forKey: id), !reminder.answered else { return }
        guard reason == 2 else {
            let how = [1: "expired", 3: "closed by the notification server"][reason] ?? "closed (reason \(reason))"
            return logger.notice("the reminder for \(reminder.date) \(how) without an answer; not counted as ignored")
        }
        hooks.dismissed(reminder.date)
        logger.notice("the reminder for \(reminder.date) was dismissed without an answer; it counts as ignored")
    }
}
