import DeskDaysConfig
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals
#if canImport(Glibc)
import Glibc
#endif

/// The agent for the life of the process: one outer `ServiceGroup` that owns
/// the signals and outlives reloads, around one `Agent` (with its own group)
/// per configuration.
///
/// SIGTERM and SIGINT are the outer group's graceful-shutdown signals; it
/// reaches the running agent's group through the task that runs it. SIGHUP
/// reloads: a valid configuration shuts the running agent's group down
/// gracefully and starts a new agent with it; an invalid one is logged with
/// its `FILE:LINE` and the running agent is kept. Every signal is trapped
/// before the first agent opens its socket, so a signal sent as soon as the
/// socket answers is never the default, abrupt one; and since the outer
/// group is never torn down for a reload, no signal falls between two agents.
public enum AgentLifecycle {
    /// Runs agents until SIGTERM or SIGINT (returns) or until one fails (throws).
    ///
    /// - Parameters:
    ///   - makeAgent: a new agent for a configuration; `reloaded` is false for the first.
    ///   - loadConfiguration: reads the configuration afresh on SIGHUP (its error is the log line).
    public static func run(configuration: Configuration, logger: Logger,
                           loadConfiguration: @escaping @Sendable () throws -> Configuration,
                           makeAgent: @escaping @Sendable (_ configuration: Configuration, _ reloaded: Bool) -> Agent)
        async throws {
        // Trapped now, before the group and the first agent start; the group traps SIGTERM and SIGINT
        // in `run()` before it starts any service.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let host = AgentHost(configuration: configuration, makeAgent: makeAgent)
        let reloader = ReloadService(hangups: hangups, host: host, loadConfiguration: loadConfiguration, logger: logger)
        // Both keep the default `.cancelGroup`: the host ends on its own only when
        // an agent failed (its error is rethrown, the process exits non-zero),
        // and neither ends before being told to otherwise. The group stops them
        // in reverse order: no reload starts once the shutdown has begun.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: host, serviceName: "agent"), .init(service: reloader, serviceName: "reload")],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Runs one agent after another: the first configuration, then each one a reload hands over.
final class AgentHost: Service {
    /// The running agent and a configuration waiting to replace it, changed together.
    private struct State {
        var agent: Agent?
        var pending: Configuration?
    }

    private let state = Mutex(State())
    private let first: Configuration
    private let makeAgent: @Sendable (Configuration, Bool) -> Agent

    init(configuration: Configuration, makeAgent: @escaping @Sendable (Configuration, Bool) -> Agent) {
        first = configuration
        self.makeAgent = makeAgent
    }

    func run() async throws {
        // A launcher may hand us these signals blocked (Foundation's Process does);
        // unblock them, now that every one of them is trapped, so that stopping the agent always works.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)

        var configuration = first
        var reloaded = false
        while true {
            let agent = makeAgent(configuration, reloaded)
            // A reload that came while no agent ran applies to this one at once.
            let replaced = state.withLock { state in
                state.agent = agent
                return state.pending != nil
            }
            if replaced { await agent.shutDownGracefully() }
            try await agent.run()
            let next = state.withLock { state in
                state.agent = nil
                defer { state.pending = nil }
                return state.pending
            }
            // Stopping (SIGTERM, SIGINT), or the agent ended without a reload: done.
            guard let next, !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            configuration = next
            reloaded = true
        }
    }

    /// Replaces the running agent with one for `configuration`.
    func reload(with configuration: Configuration) async {
        let agent = state.withLock { state in
            state.pending = configuration
            return state.agent
        }
        await agent?.shutDownGracefully()
    }
}

/// SIGHUP: the configuration is read again and, when valid, handed to the host.
struct ReloadService: Service {
    let hangups: UnixSignalsSequence
    let host: AgentHost
    let loadConfiguration: @Sendable () throws -> Configuration
    let logger: Logger

    func run() async {
        for await _ in hangups.cancelOnGracefulShutdown() {
            do {
                await host.reload(with: try loadConfiguration())
            } catch {
                logger.warning("configuration reload rejected, the running one is kept:\n\(error)")
            }
        }
    }
}
