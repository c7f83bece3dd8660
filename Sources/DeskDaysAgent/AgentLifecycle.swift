import DeskDaysConfig
import Foundation
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
    ///   - loadConfiguration: reads the configuration afresh on SIGHUP, or when
    ///     the file at `configPath` is saved with other bytes (its error is the log line).
    public static func run(configuration: Configuration, configPath: String? = nil, logger: Logger,
                           loadConfiguration: @escaping @Sendable () throws -> Configuration,
                           makeAgent: @escaping @Sendable (_ configuration: Configuration, _ reloaded: Bool) -> Agent)
        async throws {
        // Trapped now, before the group and the first agent start; the group traps SIGTERM and SIGINT
        // in `run()` before it starts any service.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let host = AgentHost(configuration: configuration, makeAgent: makeAgent)
        let reloader = ReloadService(hangups: hangups, host: host, configPath: configPath,
                                     loadConfiguration: loadConfiguration, logger: logger)
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
        agent?.reloading.withLock { $0 = true }
        await agent?.shutDownGracefully()
    }
}

/// SIGHUP, or the configuration file saved with other bytes: the
/// configuration is read again and, when valid, handed to the host. An
/// edited file applies within moments without a reload command, so no
/// command ever computes with a configuration the agent does not run
/// (docs/cli.md "Reloading").
struct ReloadService: Service {
    let hangups: UnixSignalsSequence
    let host: AgentHost
    let configPath: String?
    let loadConfiguration: @Sendable () throws -> Configuration
    let logger: Logger

    func run() async {
        let saved = configPath.map { LastBytes(path: $0) }
        let reload: @Sendable () async -> Void = { [host, loadConfiguration, logger] in
            do {
                await host.reload(with: try loadConfiguration())
            } catch {
                logger.warning("configuration reload rejected, the running one is kept:\n\(error)")
            }
        }
        await withDiscardingTaskGroup { group in
            if let configPath, let saved {
                let logger = self.logger
                group.addTask {
                    let path = configPath as NSString
                    let watcher = FolderWatcher(folder: path.deletingLastPathComponent, only: path.lastPathComponent,
                                                label: "the configuration's folder", events: FolderWatcher.saved,
                                                missingIsNormal: true, logger: logger)
                    await watcher.run {
                        guard saved.changed() else { return }
                        logger.notice("the configuration file changed; reloading it")
                        Task { await reload() }
                    }
                }
            }
            for await _ in hangups.cancelOnGracefulShutdown() {
                _ = saved?.changed()
                await reload()
            }
            // Shutting down: the watcher goes too.
            group.cancelAll()
        }
    }
}

/// A file's bytes as last seen: `changed()` tells whether they differ now
/// (an editor's save of the same text, or the watcher's first look, is no change).
final class LastBytes: Sendable {
    private let path: String
    private let seen: Mutex<[UInt8]?>

    init(path: String) {
        self.path = path
        seen = Mutex(Self.read(path))
    }

    func changed() -> Bool {
        let now = Self.read(path)
        return seen.withLock { seen in
            defer { seen = now }
            return seen != now
        }
    }

    private static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
