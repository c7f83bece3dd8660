import ArgumentParser
import DeskDaysAgent
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysCore
import DeskDaysStore
import Dispatch
import Foundation
import Logging

/// The agent's work (the definition, flags and help are `AgentCommand` in DeskDaysCLI).
extension AgentCommand {
    func runAgent() async throws {
        let session = try Session(global)
        let store = try session.writeStore()
        let logger = Logger(label: "deskdays.agent")
        // An injected now (--today, DESKDAYS_NOW) starts the agent's clock there; it then runs on.
        let environment = ProcessInfo.processInfo.environment
        let injected = global.today != nil || !(environment["DESKDAYS_NOW"] ?? "").isEmpty
            || !(environment["DESKDAYS_TODAY"] ?? "").isEmpty
        let clock = AgentClock(start: injected ? session.now : nil)
        // A closed status-bar pipe must not kill the agent: write errors are handled where they happen.
        signal(SIGPIPE, SIG_IGN)
        // SIGTERM and SIGINT end the agent gracefully: adapters are cancelled
        // and interrupt their blocking waits. SIGHUP reloads the configuration.
        // The handlers are in place before the agent starts (and opens its
        // socket), so a signal sent as soon as the socket answers is never
        // the default, abrupt one.
        // A launcher may hand us these signals blocked (Foundation's Process
        // does); unblock them so that stopping the agent always works.
        let control = AgentControl()
        let configPath = global.configPath
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                guard signalNumber == SIGHUP else { return control.stop() }
                do {
                    control.reload(with: try Self.loadConfiguration(path: configPath))
                } catch {
                    logger.error("configuration reload rejected, the running one is kept:\n\(error)")
                }
            }
            source.resume()
            sources.append(source)
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        defer { sources.forEach { $0.cancel() } }

        var configuration = session.configuration
        var first = true
        while true {
            let agent = Agent(configuration: configuration, store: store, socketPath: socket.socketPath,
                              clock: clock, logger: logger)
            if first {
                printError("deskdays agent: \(agent.summary); database \(global.databasePath). Stop with Ctrl-C.")
                if !agent.watchesAnything { printError(Self.nothingEnabledHelp(configPath: configPath)) }
                first = false
            } else {
                logger.notice("configuration reloaded; \(agent.summary)")
            }
            let task = Task { try await agent.run() }
            control.attach(task)
            do {
                try await task.value
            } catch let error as ControlServer.SetupError {
                throw CLIError(error.description + ".")
            }
            guard let next = control.takeReload() else { return }
            configuration = next
        }
    }

    /// The configuration as `Session` loads it (holidays from an iCalendar file expanded ten years ahead).
    static func loadConfiguration(path: String) throws -> Configuration {
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        return try ConfigLoader.load(path: path, horizon: LocalDate(year: year + 10, month: 12, day: 31))
    }

    /// What to do on a machine where no method is enabled yet.
    static func nothingEnabledHelp(configPath: String) -> String {
        """
        No check-in method is enabled, so the agent only serves manual check-ins \
        (`deskdays checkin`), the reminder and the fallback.
        Methods and how to enable one (in \(configPath)):
          nfc   a USB NFC reader and a tag on your desk: `deskdays enroll nfc`, then [nfc] enabled = true
          gps   a serial/USB GPS receiver: `deskdays enroll gps`, then [gps] enabled = true and its device
          qr    a webcam and a printed code: `deskdays enroll qr`, then [qr] enabled = true
          wifi  the office network: `deskdays enroll wifi`, then [wifi] enabled = true
        `deskdays doctor` says which of them this build and this machine support, and what is missing.
        """
    }
}

/// What the signal handlers ask of the running agent: stop, or restart
/// with a new configuration. Either may come before the task exists.
final class AgentControl: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Error>?
    private var stopping = false
    private var pending: Configuration?

    func attach(_ task: Task<Void, Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return stopping || pending != nil
        }
        if cancelNow { task.cancel() }
    }

    func stop() {
        let task = lock.withLock { () -> Task<Void, Error>? in
            stopping = true
            pending = nil
            return self.task
        }
        task?.cancel()
    }

    /// A valid new configuration: the agent is stopped and started again with it.
    func reload(with configuration: Configuration) {
        let task = lock.withLock { () -> Task<Void, Error>? in
            guard !stopping else { return nil }
            pending = configuration
            return self.task
        }
        task?.cancel()
    }

    /// The configuration to restart with, or nil to exit.
    func takeReload() -> Configuration? {
        lock.withLock {
            defer { pending = nil }
            return stopping ? nil : pending
        }
    }
}
