import DeskDaysCore
import Logging
import ServiceLifecycle

extension Agent {
    /// What `shutDownGracefully()` reaches: the group while `run()` runs it, and a request made before it existed.
    struct RunState {
        var group: ServiceGroup?
        var stopRequested = false
    }

    /// The agent's services, in start order; the group stops them in reverse,
    /// one after the other: adapters first (each lets go of its device), then
    /// the sleep watcher, the timers, the watchdog, and the control socket
    /// last, so clients are answered until the rest has stopped.
    ///
    /// Every service runs until it is told to stop (graceful shutdown or
    /// cancellation), never less: the group treats any other service that ends
    /// during a graceful shutdown as an error, whatever its termination behaviour.
    ///
    /// Termination behaviours, chosen on purpose:
    /// - adapters `.ignore` on success and on failure: an adapter never ends
    ///   the group; `supervise` catches every failure and restarts
    ///   the adapter itself, with backoff, so neither should ever happen.
    /// - the core services keep the default `.cancelGroup`: each only ends
    ///   when told, so one that ended on its own would be a bug that leaves
    ///   the agent silently incomplete (no socket, no reminders). Cancelling
    ///   makes `run()` throw, the process exits non-zero and systemd's
    ///   `Restart=on-failure` starts a whole agent again.
    func serviceGroupConfiguration() -> ServiceGroupConfiguration {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let server {
            services.append(.init(service: ControlSocketService(agent: self, server: server), serviceName: "control socket"))
        }
        if let interval = systemd.watchdogInterval {
            services.append(.init(service: WatchdogService(systemd: systemd, interval: interval), serviceName: "watchdog"))
        }
        services.append(.init(service: DesktopService(agent: self), serviceName: "session bus"))
        services.append(.init(service: TimerService(agent: self), serviceName: "timers"))
        services.append(.init(service: WatchService(agent: self) { await $0.watchSleep() }, serviceName: "sleep watcher"))
        if sync != nil {
            services.append(.init(service: WatchService(agent: self) { await $0.watchSyncFolder() }, serviceName: "sync folder watcher"))
        }
        if configuration.calendar != nil {
            services.append(.init(service: WatchService(agent: self) { await $0.watchCalendarFolder() }, serviceName: "calendar folder watcher"))
        }
        services.append(.init(service: WatchService(agent: self) { await $0.watchDatabase() }, serviceName: "database watcher"))
        for adapter in adapters {
            services.append(.init(service: AdapterService(agent: self, adapter: adapter),
                                  successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore,
                                  serviceName: "\(adapter.source.rawValue) adapter"))
        }
        // No signals here: SIGTERM/SIGINT belong to the enclosing group
        // (AgentLifecycle), whose graceful shutdown reaches this one through
        // the task it runs in, and which outlives reloads.
        return ServiceGroupConfiguration(services: services, logger: logger)
    }
}

/// One enabled adapter, supervised: `Agent.supervise` restarts it with backoff
/// and never throws. A graceful shutdown cancels the supervisor's task, and the
/// adapter's cancellation handler interrupts its blocking C wait with the
/// library's abort (`SCardCancel`, `nfc_abort_command`, the stop pipes).
struct AdapterService: Service {
    let agent: Agent
    let adapter: any CheckInAdapter

    func run() async {
        await cancelWhenGracefulShutdown { [agent, adapter] in await agent.supervise(adapter) }
    }
}

/// The control socket, bound by `Agent.run()` before the group starts (so a
/// refused socket stops the agent before any device is opened): this service
/// pushes store changes to subscribers while it runs, then closes the socket.
struct ControlSocketService: Service {
    let agent: Agent
    let server: ControlServer

    func run() async {
        // The answer as it is now (a new agent after a reload included), then after every commit.
        agent.answerMayHaveChanged()
        let observation = agent.store.observeChanges { [agent] in agent.storeChanged() }
        defer {
            observation.cancel()
            server.stop(reloading: agent.reloading.withLock { $0 })
        }
        // Throws only on cancellation, which is a stop too.
        try? await gracefulShutdown()
    }
}

/// `WATCHDOG=1` to systemd every half `WatchdogSec`, until told to stop.
struct WatchdogService: Service {
    let systemd: SystemdNotify
    let interval: Duration

    func run() async {
        await cancelWhenGracefulShutdown { [systemd, interval] in
            while !Task.isCancelled {
                systemd.send("WATCHDOG=1")
                try? await Task.sleep(for: interval)
            }
        }
    }
}

/// The session bus (`DesktopBus`): the D-Bus interface, the reminder's answers, the tray icon.
struct DesktopService: Service {
    let agent: Agent

    func run() async {
        await cancelWhenGracefulShutdown { [agent] in await agent.desktop.run() }
        // Without a session bus the run ends at once; the service stays until told to stop.
        try? await gracefulShutdown()
    }
}

/// Reminders and the end-of-day fallback (`Agent.runTimers`).
struct TimerService: Service {
    let agent: Agent

    func run() async {
        await cancelWhenGracefulShutdown { [agent] in await agent.runTimers() }
    }
}

/// A watch of the agent's that runs until the agent stops: logind's suspend and resume
/// (`Agent.watchSleep`: a resume re-arms every adapter service), the `[sync]` folder
/// (`Agent.watchSyncFolder`), the `[calendar]` folder (`Agent.watchCalendarFolder`), another
/// process's commit (`Agent.watchDatabase`: its write-ahead log grows, and the answer, followers,
/// the status files and the session bus follow). A watch that ends at once (no system bus) leaves
/// the service running until it is told to stop.
struct WatchService: Service {
    let agent: Agent
    let watch: @Sendable (Agent) async -> Void

    func run() async {
        await cancelWhenGracefulShutdown { [agent, watch] in await watch(agent) }
        try? await gracefulShutdown()
    }
}
