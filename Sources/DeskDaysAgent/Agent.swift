import Localization
import DeskDaysConfig
import DeskDaysControl
import DeskDaysCore
import DeskDaysDesktop
import DeskDaysPipeline
import DeskDaysReports
import DeskDaysStore
import DeskDaysSync
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The long-running agent: every enabled adapter feeds the one pipeline,
/// which is the single writer of the store; the control socket, the
/// reminder and the end-of-day fallback go through that same pipeline.
///
/// Its pieces run as services of one swift-service-lifecycle `ServiceGroup`
/// (Agent+Services.swift): every enabled adapter under a supervisor that
/// restarts it with exponential backoff when it ends or fails, so one broken
/// device never takes the others or the pipeline down, plus the control
/// socket, the timers, the sleep watcher and the systemd watchdog. A graceful
/// shutdown of the group (SIGTERM, SIGINT, a reload) cancels each adapter's
/// run, and adapters interrupt their blocking waits on cancellation.
public final class Agent: Sendable {
    let configuration: Configuration
    let store: AttendanceStore
    let pipeline: CheckInPipeline
    let logger: Logger
    let adapters: [any CheckInAdapter]
    let clock: AgentClock
    let server: ControlServer?
    /// What `status` and `report` print now, kept current (see `CurrentAnswer`).
    let answer: CurrentAnswer
    let notifier: DesktopNotifier
    /// The quiet notification for the day's first automatic check-in.
    let confirmation: Confirmation
    /// The session bus: the D-Bus interface, the reminder's answers, the tray icon.
    let desktop: DesktopBus
    /// The day the tray menu paused reminders for.
    let reminderPause = ReminderPause()
    let systemd: SystemdNotify
    /// logind's suspend/resume signal; a resume re-arms every adapter and wakes the timers.
    let sleepWatcher: SleepWatcher
    let resumes = ResumeSignal()
    /// The current answer's effects that reach out (followers, the session bus,
    /// the calendar folder, the checkpoint) run here, in order, off the answer's queue.
    let publishQueue = DispatchQueue(label: "deskdays.publish")
    /// Set when this agent stops for a reload: its followers are told to follow the next one.
    let reloading = Mutex(false)
    /// The reminders given and dismissed, kept beside the database.
    let reminders: ReminderState
    /// The running group, for `shutDownGracefully()`; nil before and after `run()`
    /// (the group holds services that hold the agent, so it is not kept beyond the run).
    let running = Mutex(RunState())
    /// The one way an event reaches the pipeline (adapters, the control socket).
    let delivery: Delivery
    /// `[sync]`: this device's journal and the folder it merges (nil: sync off).
    let sync: Synchronizer?
    /// With `[sync]`: the policy the devices agreed on when this agent started
    /// (its `configuration` holds it); a newer one in the folder reloads the agent.
    let policyAgreement: PolicyAgreement?

    /// - Parameters:
    ///   - socketPath: where to serve the control socket (nil: no socket); the
    ///     status files are written beside it.
    ///   - configPath: the configuration file loaded, so that `status` requests
    ///     made with another one are computed by their sender.
    ///   - clock: "now" for reports, reminders and the fallback.
    ///   - adapters: the enabled methods' adapters (`CheckInMethod.adapters(for:clock:)`).
    public init(configuration: Configuration, store: AttendanceStore, adapters: [any CheckInAdapter] = [], socketPath: String? = nil,
                configPath: String? = nil, policyAgreement: PolicyAgreement? = nil,
                clock: AgentClock = .system, logger: Logger = Logger(label: "deskdays.agent"),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                detect: @escaping @Sendable (_ method: String) -> String? = { _ in nil }) {
        self.configuration = configuration
        self.policyAgreement = policyAgreement
        self.store = store
        self.clock = clock
        var sync: Synchronizer?
        if let settings = configuration.sync {
            do {
                sync = try Synchronizer(store: store, folder: settings.folder, deviceName: settings.deviceName, now: clock.reading,
                                        inbox: Synchronizer.InboxRules(configuration))
            } catch {
                logger.error("sync is off for this run: \(error)")
            }
        }
        self.sync = sync
        let pipeline = CheckInPipeline(store: store, policy: configuration.policy, now: clock.reading, journal: store.journal(publishingTo: sync))
        self.pipeline = pipeline
        self.logger = logger
        let notifier = DesktopNotifier(logger: logger, environment: environment)
        self.notifier = notifier
        self.systemd = SystemdNotify(environment: environment)
        self.sleepWatcher = SleepWatcher(environment: environment, logger: logger)
        self.adapters = adapters
        let answer = CurrentAnswer(store: store, policy: configuration.policy,
                                   calendar: Agent.readCalendar(configuration.calendar, clock: clock, logger: logger), clock: clock,
                                   folder: socketPath.map { ($0 as NSString).deletingLastPathComponent }, logger: logger,
                                   fallbackTime: configuration.checkin.fallbackTime, planDefaults: configuration.plan)
        self.answer = answer
        let confirmation = Confirmation(configuration: configuration, store: store, clock: clock, answer: answer, notifier: notifier)
        self.confirmation = confirmation
        let fixed = !clock.isSystemClock
        let asked: @Sendable () -> AskedTime? = { fixed ? AskedTime(fixed: clock.now()) : nil }
        let delivery = Delivery(pipeline: pipeline, confirmation: confirmation, logger: logger, asked: asked)
        self.delivery = delivery
        reminders = ReminderState(databasePath: store.path, logger: logger)
        let policy = configuration.policy, pause = reminderPause
        let commands = DesktopCommands(configPath: configPath, databasePath: store.path, socketPath: socketPath, clock: clock, logger: logger)
        desktop = DesktopBus(address: notifier.address, tray: configuration.desktop.tray, hooks: DesktopBus.Hooks(
            summary: { try answer.desktopSummary() },
            report: { answer.report($0) },
            record: { date, status, note, via in
                try await delivery.record(dates: [date], status: status, note: note, door: " through \(via)")
            },
            today: { policy.localDate(of: clock.now()) },
            openApp: { await DesktopOpener.openApp(environment: environment, logger: logger) },
            openReport: {
                do {
                    let path = try answer.writeHTMLReport()
                    if await !DesktopOpener.open(path, environment: environment, logger: logger) {
                        // Nothing here opens it (no browser, no xdg-open): the person is told where it is.
                        await notifier.notify(.document, title: tr("DeskDays report"),
                                              body: tr("No application here opens the report; it is in \(path)."))
                    }
                } catch {
                    logger.warning("could not write the report to open it: \(error)")
                }
            },
            pauseReminders: { day in
                pause.pause(day)
                logger.notice("reminders paused for \(day) from the tray menu")
            },
            dismissed: { [reminders] day in reminders.update { $0.dismiss(day) } },
            onScreen: { [reminders] in Dictionary(reminders.load().onScreen.map { ($0.id, $0.date) }, uniquingKeysWith: { $1 }) },
            keepOnScreen: { [reminders] shown in reminders.update { $0.setOnScreen(shown) } },
            command: { await commands.run($0) },
            configure: { commands.configure($0, $1) },
            configured: { commands.configPath.map { FileManager.default.fileExists(atPath: $0) } ?? false },
            detect: detect),
            notifier: notifier, logger: logger)
        // The day's first automatic check-in is announced on the agent's own connection, which hears it activated.
        notifier.attach { [weak desktop] title, body in await desktop?.announce(title: title, body: body) ?? false }
        if let socketPath {
            let handler = Handler(delivery: delivery, answer: answer, databasePath: store.path, configPath: configPath,
                                  syncFolder: sync?.folder, configuration: configuration, clock: clock, logger: logger)
            server = ControlServer(path: socketPath, logger: logger, elapsed: clock.elapsed, summary: { handler.reply(answer.status($0)) },
                                   refusal: { handler.refusal($0) }, immediate: { handler.immediate($0) },
                                   handler: { await handler.handle($0) })
        } else {
            server = nil
        }
        connectAnswer()
    }

    /// What the agent will watch, for the log and systemd's status line (English, as every log line).
    public var summary: String {
        var parts = adapters.isEmpty ? ["no adapter enabled"] : ["watching: " + adapters.map(\.source.rawValue).joined(separator: ", ")]
        if let server { parts.append("control socket \(server.path)") }
        return parts.joined(separator: "; ")
    }

    /// The same in the user's language, for the start-up message on the terminal.
    public var startupSummary: String {
        let names = adapters.map(\.source.rawValue).joined(separator: ", ")
        switch (adapters.isEmpty, server?.path) {
        case (true, let path?): return tr("no adapter enabled; control socket \(path)")
        case (true, nil): return tr("no adapter enabled")
        case (false, let path?): return tr("watching: \(names); control socket \(path)")
        case (false, nil): return tr("watching: \(names)")
        }
    }


    /// Runs until its service group is shut down gracefully (by the enclosing
    /// group's signals, or `shutDownGracefully()`) or cancelled. Throws when
    /// the control socket cannot be set up, or when a core service ends on its own.
    public func run() async throws {
        // The socket listens before any service starts: a second agent fails
        // here before it opens a device, and READY=1 follows the listen.
        try server?.start()
        systemd.send("READY=1\nSTATUS=\(summary)")
        let group = ServiceGroup(configuration: serviceGroupConfiguration())
        let stopAtOnce = running.withLock { state in
            state.group = group
            return state.stopRequested
        }
        // A request that came before the group existed; the group remembers it and stops at once.
        if stopAtOnce { await group.triggerGracefulShutdown() }
        defer { running.withLock { $0.group = nil } }
        try await group.run()
        await departAll(because: "the agent stopped")
        // A reload is no stop: STOPPING=1 would have systemd wait
        // TimeoutStopSec for an exit that never comes, then kill the agent.
        // RELOADING=1 now, READY=1 from the next agent.
        systemd.send(reloading.withLock { $0 } ? "RELOADING=1" : "STOPPING=1")
        logger.info("agent stopped")
    }

    /// Shuts the running group down gracefully (for a reload): every service
    /// is told to stop, in reverse order, and `run()` returns. Remembered when
    /// `run()` has not started the group yet.
    public func shutDownGracefully() async {
        let group = running.withLock { state in
            state.stopRequested = true
            return state.group
        }
        await group?.triggerGracefulShutdown()
    }

    /// Runs one adapter, restarting it with backoff (1 s doubling to 60 s,
    /// reset after a minute of healthy running) until cancelled. A resume
    /// from sleep restarts it at once, without backoff.
    func supervise(_ adapter: any CheckInAdapter) async {
        var backoff = Backoff(initialSeconds: 1, maximumSeconds: 60)
        while !Task.isCancelled {
            let started = clock.elapsed()
            let seen = resumes.generation
            var failure: String?
            do {
                if try await runUntilResume(adapter, after: seen) {
                    backoff.reset()
                    continue
                }
            } catch is CancellationError {
                return
            } catch {
                failure = "\(error)"
            }
            if Task.isCancelled { return }
            // A minute of healthy running earns a quick restart again.
            if clock.elapsed() - started > .seconds(60) { backoff.reset() }
            let delay = Duration.seconds(backoff.next())
            if let failure {
                logger.error("\(adapter.source.rawValue) adapter failed (\(failure)); restarting in \(delay)")
            } else {
                logger.warning("\(adapter.source.rawValue) adapter stopped; restarting in \(delay)")
            }
            await sleep(for: delay, unlessResumedAfter: seen)
        }
    }

    /// Hands an adapter's event to the pipeline; a refusal or a store failure is logged, never fatal.
    func deliver(_ event: CheckInEvent) async {
        do {
            try await delivery.deliver(event)
        } catch let refusal as CheckInPipeline.Refusal {
            // The event's own values (a time more than a day ahead): the input's fault, not the agent's.
            logger.warning("refused a \(event.source.rawValue) check-in: \(refusal)")
        } catch {
            logger.error("could not store a \(event.source.rawValue) check-in: \(error)")
        }
    }
}

extension Agent {
    /// Records a departure now for every method still present (the agent
    /// stops, the machine suspends): presence cannot be vouched for beyond
    /// this moment. On resume the re-armed adapters report arrivals again
    /// for the methods still present.
    func departAll(because reason: String) async {
        let leaving = delivery.present.withLock { present in
            defer { present.removeAll() }
            return present.sorted { $0.key < $1.key }
        }
        guard !leaving.isEmpty else { return }
        let now = clock.now()
        for (source, rule) in leaving {
            await deliver(CheckInEvent(source: source, rule: rule, time: now, kind: .departure))
        }
        logger.notice("\(reason): departure recorded for \(leaving.map(\.key.rawValue).joined(separator: ", "))")
    }

    /// Whether any adapter runs (else only manual check-ins, reminders and the fallback).
    public var watchesAnything: Bool { !adapters.isEmpty }
}

extension Agent {
    /// Gives the current answer the agent's hands (`AgentState`'s effects
    /// that leave it), each on the publish queue, off the answer's own: a
    /// changed status pushed to followers; after each refresh the calendar
    /// folder written (`[calendar] write = true`: manual office days made by
    /// any door reach it) and the session bus told (it diffs and announces
    /// what changed: PropertiesChanged, the tray); after the store stayed quiet
    /// for `AgentState.checkpointDelay`, the write-ahead log folded into the
    /// main file (a passive checkpoint, which never waits for readers), so
    /// that a copy of deskdays.sqlite alone holds the whole history.
    func connectAnswer() {
        let answer = self.answer, server = self.server, desktop = self.desktop, queue = publishQueue
        let store = self.store, clock = self.clock, logger = self.logger
        answer.carryOut(CurrentAnswer.Effects(
            publish: { queue.async { server?.publish() } },
            refreshed: { [weak self] in
                queue.async { [weak self] in
                    self?.writeCalendar()
                    if desktop.isServing, let summary = try? answer.desktopSummary() { desktop.update(summary) }
                }
            },
            wake: { instant, then in
                Task {
                    guard (try? await clock.sleep(until: instant)) != nil else { return }
                    then()
                }
            },
            checkpoint: {
                queue.async {
                    do {
                        let (frames, folded) = try store.checkpoint()
                        logger.debug("checkpoint: \(folded) of \(frames) log frames in the database file")
                    } catch {
                        logger.info("checkpoint postponed: \(error)")
                    }
                }
            }))
    }

    /// Something the answer reads may have changed: it is recomputed (at
    /// most one refresh waits behind the one running, reading the latest
    /// state: a burst of commits costs two recomputes, not one each) and,
    /// when it changed, pushed.
    func answerMayHaveChanged() {
        answer.mayHaveChanged()
    }

    /// After a commit of its own (from the store's writer: counted, never waiting).
    func storeChanged() {
        answer.storeCommitted()
    }
}

/// The one way in: every write from outside the agent reaches the pipeline
/// here, and is logged here. An event (an adapter's, the control socket's):
/// which methods are present is noted (a stop or a suspend is their
/// departure), the check-in stored, logged and confirmed. A manual record
/// (the control socket, a reminder's answer, D-Bus, the tray) and a clear
/// (the control socket). The phones' inbox is merged as a device's lines
/// (`Synchronizer`), never replayed through here, so a copied line counts once.
final class Delivery: Sendable {
    let pipeline: CheckInPipeline
    let confirmation: Confirmation
    let logger: Logger
    /// The methods present now (an arrival not yet followed by a departure;
    /// never NFC or QR, whose taps are instants), with their rule names
    /// (docs/policy.md "Time on site").
    let present = Mutex([Source: String?]())

    /// The date the agent answers for when it is not the machine's clock's
    /// (`DESKDAYS_NOW`): an adapter's event is stamped on it, and checked against it.
    let asked: @Sendable () -> AskedTime?

    init(pipeline: CheckInPipeline, confirmation: Confirmation, logger: Logger, asked: @escaping @Sendable () -> AskedTime? = { nil }) {
        self.pipeline = pipeline
        self.confirmation = confirmation
        self.logger = logger
        self.asked = asked
    }

    /// Stores `event`; `door` names where it came from in the log (empty: an
    /// adapter). Throws what the pipeline refuses or cannot store.
    @discardableResult
    func deliver(_ event: CheckInEvent, door: String = "") async throws -> SubmitOutcome {
        if !event.source.isInstant {
            present.withLock { $0[event.source] = event.kind == .arrival ? .some(event.rule) : nil }
        }
        let outcome = try await pipeline.submit(event, asked: asked())
        if event.kind == .departure {
            logger.info("\(event.source.rawValue) departure noted for \(outcome.date)\(door)", metadata: ["rule": "\(event.rule ?? "-")"])
            return outcome
        }
        switch outcome {
        case .stored(let date):
            logger.notice("\(event.source.rawValue) check-in stored for \(date)\(door)", metadata: ["rule": "\(event.rule ?? "-")"])
            await confirmation.arrived(event, on: date)
        case .duplicate(let date):
            logger.info("\(event.source.rawValue) check-in for \(date) already stored\(door)")
        }
        return outcome
    }

    /// Records `status` by hand for `dates`; `door` names where it came from in the log.
    func record(dates: [LocalDate], status: AttendanceStatus, note: String?, door: String) async throws {
        try await pipeline.recordManual(dates: dates, status: status, note: note)
        let which = dates.count == 1 ? dates[0].description : "\(dates.count) dates"
        logger.notice("manual \(status.rawValue) recorded for \(which)\(door)")
    }

    /// Removes `date`'s entries of `origins` (a manual record, by default).
    func clear(date: LocalDate, origins: Set<Origin>) async throws -> [Removal] {
        try await pipeline.clear(date: date, origins: origins)
    }
}
