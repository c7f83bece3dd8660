import ArgumentParser
import DeskDaysAgent
import DeskDaysStore
import Dispatch
import Foundation
import Logging

/// `deskdays agent`: adapters → pipeline → store, in the foreground, with
/// the control socket, reminders and the end-of-day fallback.
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Run the agent: watch the enabled check-in methods and store arrivals.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    func run() async throws {
        let session = try Session(global)
        let store = try session.writeStore()
        let logger = Logger(label: "deskdays.agent")
        // An injected now (--today, DESKDAYS_NOW) starts the agent's clock there; it then runs on.
        let environment = ProcessInfo.processInfo.environment
        let injected = global.today != nil || !(environment["DESKDAYS_NOW"] ?? "").isEmpty
            || !(environment["DESKDAYS_TODAY"] ?? "").isEmpty
        let agent = Agent(configuration: session.configuration, store: store, socketPath: socket.socketPath,
                          clock: AgentClock(start: injected ? session.now : nil), logger: logger)
        printError("deskdays agent: \(agent.summary); database \(global.databasePath). Stop with Ctrl-C.")
        if !agent.watchesAnything {
            printError(Self.nothingEnabledHelp(configPath: global.configPath))
        }
        // A closed status-bar pipe must not kill the agent: write errors are handled where they happen.
        signal(SIGPIPE, SIG_IGN)
        // SIGTERM and SIGINT end the agent gracefully: adapters are cancelled
        // and interrupt their blocking waits. The handlers are in place before
        // the agent starts (and opens its socket), so a stop sent as soon as
        // the socket answers is never the default, abrupt one.
        // A launcher may hand us these signals blocked (Foundation's Process
        // does); unblock them so that stopping the agent always works.
        let stop = StopRequest()
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.request() }
            source.resume()
            sources.append(source)
        }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGTERM, SIGINT] { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let task = Task { try await agent.run() }
        stop.attach(task)
        defer { sources.forEach { $0.cancel() } }
        do {
            try await task.value
        } catch let error as ControlServer.SetupError {
            throw CLIError(error.description + ".")
        }
    }

    /// What to do on a machine where no method is enabled yet.
    static func nothingEnabledHelp(configPath: String) -> String {
        """
        No check-in method is enabled, so the agent only serves manual check-ins \
        (`deskdays checkin`), the reminder and the fallback.
        Methods in this build and how to enable one (in \(configPath)):
          nfc  a USB NFC reader and a tag on your desk: `deskdays enroll nfc`, then [nfc] enabled = true
          gps  a serial/USB GPS receiver: `deskdays enroll gps`, then [gps] enabled = true and device = "/dev/ttyACM0"
        `deskdays doctor` checks the hardware and permissions for the enabled methods.
        """
    }
}

/// Cancels the agent's task when a stop signal comes, even one that comes before the task exists.
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Error>?
    private var requested = false

    func attach(_ task: Task<Void, Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return requested
        }
        if cancelNow { task.cancel() }
    }

    func request() {
        let task = lock.withLock { () -> Task<Void, Error>? in
            requested = true
            return self.task
        }
        task?.cancel()
    }
}
