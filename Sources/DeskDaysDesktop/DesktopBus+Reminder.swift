import Localization
import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import DeskDaysReports
import Foundation
import Logging
import Synchronization
import SystemBus

/// The reminder as a notification whose actions answer it (see `DesktopBus`).
extension DesktopBus {
    /// Calls a method of the notification server or the tray's watcher without waiting (`BusSupport.callAsync`).
    package func callAsync(_ bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
                           autoStart: Bool = true, build: (OpaquePointer) -> Int32 = { _ in 0 },
                           then: @escaping (OpaquePointer) -> Void) -> String? {
        BusSupport.callAsync(bus, destination: destination, path: path, interface: interface, member: member, autoStart: autoStart,
                             timeoutMicroseconds: DesktopNotifier.timeoutSeconds * 1_000_000, build: build, then: then)
    }

    /// Asks the server for its capabilities, then shows the reminder: with
    /// the actions `office`, `remote` and `off` where it lists `actions`, else
    /// with a body naming the command (mako, minimal daemons).
    package func showReminder(_ reminder: Reminder) {
        guard let bus else { return }
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "GetCapabilities") { [self] reply in
            let capabilities = BusSupport.errorName(reply) == nil ? BusSupport.readStrings(reply) ?? [] : []
            notify(reminder, actions: capabilities.contains("actions"))
        }
        if let failure { notifier.complain("the desktop notification could not be shown (\(failure))") }
    }

    private func notify(_ reminder: Reminder, actions: Bool) {
        guard let bus else { return }
        // "default": the server's activation of the notification itself (a click on it) opens the window.
        let pairs = actions ? Self.answers.flatMap { [$0.key, $0.label] } + ["default", tr("Open DeskDays")] : []
        let body = actions ? reminder.answerBody : reminder.plainBody
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "Notify", build: { message in
            // Answers on it: it stays until answered or dismissed (expire_timeout 0), so a
            // server's default timeout (dunst: 10 s) neither hides the question nor counts it as ignored.
            DesktopNotifier.appendNotify(to: message, icon: .question, title: reminder.title, body: body, actions: pairs,
                                         expires: pairs.isEmpty ? -1 : 0)
        }) { [self] reply in
            if let failure = BusSupport.failure(of: reply) {
                notifier.complain("the desktop notification could not be shown (\(failure))")
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
        let signals: [(String, (OpaquePointer) -> Void)] = [
            ("ActionInvoked", { [unowned self] message in
                if let id = BusSupport.read(message, "u", as: UInt32.self, zero: 0), let key = BusSupport.readString(message) {
                    actionInvoked(id: id, key: key)
                }
            }),
            ("NotificationClosed", { [unowned self] message in
                if let id = BusSupport.read(message, "u", as: UInt32.self, zero: 0),
                   let reason = BusSupport.read(message, "u", as: UInt32.self, zero: 0) {
                    notificationClosed(id: id, reason: reason)
                }
            }),
        ]
        for (member, body) in signals {
            if case .success(let subscription) = BusSupport.matchSignal(bus, sender: Self.notifications, path: Self.notificationsPath,
                                                                        interface: Self.notifications, member: member, body) {
                subscriptions.append(subscription)
            }
        }
    }

    /// A quiet notification with the default action (activating it opens the window); `done` runs once.
    package func announce(title: String, body: String, done: @escaping @Sendable (Bool) -> Void) {
        guard let bus else { return done(false) }
        announcementNumber += 1
        let number = announcementNumber
        pendingAnnouncements[number] = done
        let failure = callAsync(bus, destination: Self.notifications, path: Self.notificationsPath,
                                interface: Self.notifications, member: "Notify", build: { message in
            DesktopNotifier.appendNotify(to: message, icon: .recorded, title: title, body: body, actions: ["default", tr("Open DeskDays")], quiet: true)
        }) { [self] reply in
            defer { pendingAnnouncements.removeValue(forKey: number)?(true) }
            guard let id = BusSupport.failure(of: reply) == nil ? BusSupport.read(reply, "u", as: UInt32.self, zero: 0) : nil else {
                return notifier.complain("the desktop notification could not be shown (\(BusSupport.failure(of: reply) ?? "no id"))")
            }
            announced.insert(id)
            logger.info("confirmation shown as a desktop notification (id \(id))")
        }
        if let failure {
            pendingAnnouncements.removeValue(forKey: number)?(true)
            notifier.complain("the desktop notification could not be shown (\(failure))")
        }
    }

    /// An answer from the reminder: recorded once, through the pipeline, then
    /// confirmed in its place; the default action (the notification itself
    /// activated) of a reminder or an announcement opens the window.
    package func actionInvoked(id: UInt32, key: String) {
        if key == "default" {
            // Once per notification (a server may repeat itself); a reminder opened so is not "ignored".
            if shown[id]?.opened == false {
                shown[id]?.opened = true
            } else if announced.remove(id) == nil {
                return
            }
            logger.info("notification \(id) activated: opening the window")
            let hooks = self.hooks
            Task { await hooks.openApp() }
            return
        }
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
            DesktopNotifier.appendNotify(to: message, icon: .recorded, title: tr("DeskDays: recorded"), body: tr("\(label) on \(shownDate)."), replaces: id)
        }) { [self] reply in
            if let failure = BusSupport.failure(of: reply) {
                logger.info("the confirmation could not be shown (\(failure))")
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
            if BusSupport.errorName(reply) == nil { logger.info("the reminder was withdrawn: today is answered") }
        }
        if let failure { logger.debug("cannot withdraw the reminder (\(failure))") }
    }

    /// Closed without an answer: dismissed by the user (reason 2), it counts
    /// as ignored (`ReminderStreak`); expired or closed by the server, it does not.
    package func notificationClosed(id: UInt32, reason: UInt32) {
        announced.remove(id)
        guard let reminder = shown.removeValue(forKey: id), !reminder.answered else { return }
        if reminder.opened {
            return logger.info("the reminder for \(reminder.date) closed after opening the window; not counted as ignored")
        }
        guard reason == 2 else {
            let how = [1: "expired", 3: "closed by the notification server"][reason] ?? "closed (reason \(reason))"
            return logger.notice("the reminder for \(reminder.date) \(how) without an answer; not counted as ignored")
        }
        hooks.dismissed(reminder.date)
        logger.notice("the reminder for \(reminder.date) was dismissed without an answer; it counts as ignored")
    }
}
