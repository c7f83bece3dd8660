import Syscall
import Localization
import DeskDaysReports
import DeskDaysCalendar
import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import DeviceThread
import Foundation
import Localization
import Synchronization
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches a folder with inotify on a thread of its own (a blocking `poll`
/// beside the `StopSignal`, like the other watchers) and calls `onChange`
/// after each burst of changes to a file other than `ownName` (or, with
/// `only`, to that file alone): for the `[sync]` folder, a synchroniser's
/// rename into place, an append, a deletion; for the configuration's
/// folder, an editor saving the file. No timer: a quiet folder costs no wake-up.
final class FolderWatcher: Sendable {
    let folder: String
    /// The file this device writes itself (asked at each change: after a
    /// restore or clone is found, the device writes under a new identity).
    let ownName: @Sendable () -> String
    let only: String?
    /// How the folder is named in the log ("the sync folder").
    let label: String
    let events: UInt32
    /// A missing folder is the usual state (the configuration's before the
    /// first `enroll`), not a problem: said once at info level.
    let missingIsNormal: Bool
    /// Whether `onChange` runs once as watching begins (what was written while nobody watched).
    let catchUp: Bool
    private let logger: Logger

    /// Every kind of change (the sync folder's files are appended to as well as replaced).
    static let anyChange = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
    /// A file saved whole (closed after writing, or renamed into place) or removed: not each write of a save.
    static let saved = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)

    init(folder: String, ownName: @escaping @Sendable () -> String = { "" }, only: String? = nil, label: String = "the sync folder",
         events: UInt32 = FolderWatcher.anyChange, missingIsNormal: Bool = false, catchUp: Bool = true, logger: Logger) {
        self.folder = folder
        self.ownName = ownName
        self.only = only
        self.label = label
        self.events = events
        self.missingIsNormal = missingIsNormal
        self.catchUp = catchUp
        self.logger = logger
    }

    /// Runs until cancelled; `onChange` runs on the watcher's thread.
    func run(onChange: @escaping @Sendable () -> Void) async {
        await DeviceStream.run(name: "deskdays-sync") { stop in self.loop(stop: stop, onChange: onChange) }
    }

    private func loop(stop: StopSignal, onChange: @Sendable () -> Void) {
        var delay = Backoff(initialSeconds: 1, maximumSeconds: 60)
        var reported: Int32 = 0
        while !stop.isStopped {
            let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
            guard fd >= 0 else {
                logger.error("cannot watch \(label) (inotify: \(String(cString: strerror(errno))))")
                return
            }
            let mask = events | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
            if inotify_add_watch(fd, folder, mask) < 0 {
                let code = errno, reason = String(cString: strerror(errno))
                close(fd)
                // Each reason once, not at every retry: a first run has no configuration folder yet.
                if code != reported {
                    reported = code
                    if code == ENOENT, missingIsNormal {
                        logger.info("\(label) \(folder) does not exist yet; looking for it now and then")
                    } else {
                        logger.warning("cannot watch \(label) \(folder) (\(reason)); trying again")
                    }
                }
                guard stop.sleep(delay.next()) else { return }
                continue
            }
            delay.reset()
            reported = 0
            logger.info("watching \(label) \(folder)")
            // What was written while nobody watched.
            if catchUp { onChange() }
            let outcome = watch(fd, stop: stop, onChange: onChange)
            close(fd)
            if outcome { return }
            logger.warning("\(label) \(folder) went away; watching for it again")
            guard stop.sleep(delay.next()) else { return }
        }
    }

    /// Waits for events until stopped (true) or the folder is gone (false).
    private func watch(_ fd: Int32, stop: StopSignal, onChange: @Sendable () -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
        while !stop.isStopped {
            fds[0].revents = 0
            fds[1].revents = 0
            guard case .success = Syscall.poll(&fds, timeout: -1) else { return false }
            if fds[1].revents != 0 || stop.isStopped { return true }
            guard fds[0].revents != 0 else { continue }
            var relevant = false, gone = false
            while true {
                guard case .success(let count) = buffer.withUnsafeMutableBytes({ Syscall.read(fd, into: $0) }), count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.mask, Int(event.len))
                    }
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { gone = true }
                    // This device's own appends are not news.
                    if !name.isEmpty, name != ownName(), only.map({ $0 == name }) ?? true { relevant = true }
                    offset = nameStart + length
                }
            }
            if relevant { onChange() }
            if gone { return false }
        }
        return true
    }
}

extension Agent {
    /// Tells the user at once that this device's clock ran ahead and what
    /// was done about it (`Synchronizer.correctClock`).
    func tellClockCorrected(_ correction: AttendanceStore.ClockCorrection) async {
        let sentence = Synchronizer.sentence(correction)
        logger.warning("sync: \(sentence)")
        await notifier.notify(.warning, title: tr("DeskDays: this device's clock"),
                              body: sentence.prefix(1).uppercased() + sentence.dropFirst() + ".")
    }

    /// After this clock went back (found by the timers), its lines written
    /// ahead are stamped again now, not at the next change.
    func correctClockNow() async {
        guard let sync else { return }
        do {
            try sync.publish()
            if let correction = sync.takeCorrection() { await tellClockCorrected(correction) }
        } catch {
            logger.warning("sync: \(error)")
        }
    }

    /// Publishes this device's journal, merges the folder, then merges again
    /// within moments of each change to another device's file or the inbox,
    /// until cancelled (`SyncService`). A merge commits through the agent's
    /// own store, so the answer, `status --follow` and the status files follow at once.
    func watchSyncFolder() async {
        guard let sync else { return }
        let service = SyncService(sync: sync, beforeMerge: { [self] in reloadForNewerPolicy() },
                                  corrected: { [self] correction in Task { await tellClockCorrected(correction) } },
                                  say: { [logger] note in
                                      switch note {
                                      case .info(let text): logger.info("\(text)")
                                      case .warning(let text): logger.warning("\(text)")
                                      }
                                  })
        service.publish()
        let watcher = FolderWatcher(folder: sync.folder, ownName: { Synchronizer.fileName(sync.deviceID) }, logger: logger)
        // The inbox (inotify is not recursive): a line appended there is
        // merged within moments too. A folder without one is the usual case.
        let inbox = FolderWatcher(folder: sync.inboxFolder, label: "the inbox", missingIsNormal: true, logger: logger)
        await tellPolicyDifference()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watcher.run(onChange: service.merge) }
            if sync.inbox != nil { group.addTask { await inbox.run(onChange: service.merge) } }
            group.addTask { [clock] in
                await service.mergeHeldLines { until in (try? await clock.sleep(untilReading: until)) != nil }
            }
        }
        service.finish()
    }
}

extension Agent {
    /// A device whose own `[policy]` differs from the shared one it answers
    /// from is told once (per shared version) by a notification, with the
    /// commands (docs/cli.md "Every device, one rule").
    func tellPolicyDifference() async {
        guard let agreement = policyAgreement, let notice = agreement.notice(writing: ReportLocale.process.day) else { return }
        logger.notice("\(notice)")
        guard PolicyMemory(databasePath: store.path).tellOnce(agreement) else { return }
        await notifier.notify(.summary, title: tr("DeskDays: the shared policy"), body: notice + ".")
    }

    /// The policy this device answers from, with `[sync]` and `share_policy`
    /// (else nil): agreed with the folder at each load of the configuration.
    public static func agreePolicy(_ own: Configuration, databasePath: String, clock: AgentClock, logger: Logger) -> PolicyAgreement? {
        guard own.sync?.sharePolicy == true else { return nil }
        let agreement = PolicyAgreement.agree(own, memory: PolicyMemory(databasePath: databasePath), clock: clock.reading())
        for problem in agreement.problems { logger.warning("sync: \(Printable.escaped(problem))") }
        if agreement.published { logger.notice("shared this device's policy in the sync folder") }
        return agreement
    }

    /// Another device shared a policy (the folder's newest is not the one
    /// this agent started with): the configuration is agreed again by a
    /// reload (SIGHUP, as `systemctl --user reload deskdays` sends).
    func reloadForNewerPolicy() {
        guard let agreement = policyAgreement, let settings = configuration.sync, settings.sharePolicy else { return }
        let newest = SharedPolicy.newest(in: settings.folder, now: clock.reading()).policy
        guard newest?.time != agreement.shared?.time || newest?.text != agreement.shared?.text else { return }
        logger.notice("the sync folder holds a newer shared policy; reloading")
        kill(getpid(), SIGHUP)
    }
}

extension Agent {
    /// Every commit reaches every follower, whichever process made it: a
    /// commit in WAL mode writes the `-wal` file, so after each burst of
    /// writes to it the answer is asked whether it is still fresh (SQLite's
    /// `data_version` shows other connections' commits; the agent's own are
    /// counted already, so they cost a comparison).
    func watchDatabase() async {
        let folder = (store.path as NSString).deletingLastPathComponent
        let wal = (store.path as NSString).lastPathComponent + "-wal"
        // No catching up at the start: the answer asks data_version when it is asked.
        let watcher = FolderWatcher(folder: folder.isEmpty ? "." : folder, only: wal, label: "the database's folder",
                                    events: UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO), catchUp: false,
                                    logger: logger)
        await watcher.run { [self] in answerMayHaveChanged() }
    }
}

extension Agent {
    /// The `[calendar]` folder read with the horizon the CLI uses (ten
    /// years past this one); each skipped file is logged (names only).
    static func readCalendar(_ settings: CalendarSettings?, clock: AgentClock, logger: Logger) -> CalendarDays {
        guard let settings else { return CalendarDays() }
        let year = LocalDate(dayNumber: Int((clock.now().timeIntervalSince1970 / 86_400).rounded(.down))).year
        let reading = CalendarFolder.read(settings, horizon: LocalDate(year: year + 10, month: 12, day: 31)!)
        for problem in reading.problems { logger.warning("\(Printable.escaped(problem))") }
        return reading.days
    }

    /// With `[calendar] write = true`: DeskDays' own event files made to
    /// match the manual office records (`CalendarWriter.reconcile`); a
    /// failure is logged, never fatal. On the publish queue, after a commit.
    func writeCalendar() {
        guard let settings = configuration.calendar, settings.write else { return }
        do {
            let office = CalendarWriter.manualOfficeDates(try store.dateRange().map { try store.records(in: $0) } ?? [])
            let changes = try CalendarWriter.reconcile(settings, officeDates: office, now: clock.now())
            if !changes.written.isEmpty || !changes.removed.isEmpty {
                logger.info("calendar: \(changes.written.count) office event(s) written, \(changes.removed.count) removed")
            }
        } catch {
            logger.warning("calendar: \(error)")
        }
    }

    /// Reads the `[calendar]` folder again after each change to its files
    /// (an edit, vdirsyncer's rename into place, a removal), and pushes the
    /// answer to followers and the session bus when it changed.
    func watchCalendarFolder() async {
        guard let settings = configuration.calendar else { return }
        let watcher = FolderWatcher(folder: settings.folder, label: "the calendar folder", events: FolderWatcher.saved,
                                    logger: logger)
        await watcher.run { [self] in
            answer.calendarRead(Agent.readCalendar(settings, clock: clock, logger: logger))
            answerMayHaveChanged()
        }
    }
}
