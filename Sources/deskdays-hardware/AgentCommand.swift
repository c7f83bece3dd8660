import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import CheckInMethods
import DeskDaysAgent
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysControl
import DeskDaysCore
import DeskDaysStore
import Foundation
import Logging
import Synchronization

/// `deskdays agent`: adapters → pipeline → store, in the foreground, with
/// the control socket, reminders and the end-of-day fallback.
struct AgentCommand: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: Hardware.Command.agent.rawValue, abstract: Hardware.Command.agent.abstract)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions
}

/// The agent's work (the definition, flags and help are `AgentCommand` in DeskDaysCLI).
extension AgentCommand {
    func run() async throws {
        // Once started (configuration read, database opened, adapters set up),
        // the start-up code is let go and the rest paged in only as used.
        let settle = Task.detached {
            try await Task.sleep(for: .seconds(10))
            CodeResidency.keepOnlyCodeInUse()
        }
        defer { settle.cancel() }
        // A closed output or status-bar pipe must not kill the agent: write errors are handled where they happen.
        signal(SIGPIPE, SIG_IGN)
        // A second agent says so in one line and exits 1, before it opens anything.
        if case .connected = ControlConnection.connect(path: socket.socketPath, waiting: .answer) {
            throw CLIError(tr("another deskdays agent is already running on \(socket.socketPath); stop it first (systemctl --user stop deskdays)."))
        }
        let session = try Session(global)
        let store = try session.writeStore()
        // One agent per database, whatever socket it serves: held until this process ends.
        let lock: DatabaseLock
        do {
            lock = try DatabaseLock(databasePath: global.databasePath)
        } catch .held(let folder, let holder?) {
            throw CLIError(tr("another deskdays agent (process \(holder)) is already running on the database in \(folder); stop it first (systemctl --user stop deskdays)."))
        } catch .held(let folder, nil) {
            throw CLIError(tr("another deskdays agent is already running on the database in \(folder); stop it first (systemctl --user stop deskdays)."))
        } catch .unreadable(let folder, let reason) {
            throw CLIError(tr("cannot lock the database's folder \(folder) (\(reason)); check its permissions."))
        }
        defer { withExtendedLifetime(lock) {} }
        let logger = Logger(label: "deskdays.agent")
        if socket.socket == nil, let taken = AgentPaths.process.socketFolderTaken {
            printError("deskdays agent: " + tr("\(taken.folder) is not this user's own folder (another user made it); the control socket is \(taken.instead) instead, where every deskdays command looks too"))
        }
        // The database is the file at its path: one replaced or deleted under
        // the agent (a restore by `mv`) is never written into; the agent ends
        // with status 1 (systemd restarts it on the new file), the write unacknowledged.
        let databaseAtStart = global.databasePath
        store.whenReplaced {
            logger.critical("the database \(databaseAtStart) was replaced or removed while the agent had it open; nothing was written into the old file, and the agent exits to open the new one (systemd restarts it)")
            Glibc.exit(1)
        }
        // An injected now (--today, DESKDAYS_NOW) starts the agent's clock
        // there; it then runs on, or, with DESKDAYS_CLOCK=manual, moves only
        // when the control socket's `advance` says (tests: docs/testing.md "Timers").
        let environment = ProcessInfo.processInfo.environment
        let injected = global.today != nil || !(environment["DESKDAYS_NOW"] ?? "").isEmpty
            || !(environment["DESKDAYS_TODAY"] ?? "").isEmpty
        let clock = !injected ? AgentClock.system
            : environment["DESKDAYS_CLOCK"] == "manual" ? AgentClock.manual(start: session.now.date) : AgentClock(start: session.now.date)
        // SIGTERM and SIGINT end the agent gracefully (exit status 0); SIGHUP
        // reloads the configuration: AgentLifecycle's service groups.
        let configPath = global.configPath, databasePath = global.databasePath, socketPath = socket.socketPath
        // A file that was there at start and is gone at a reload is a problem
        // (the running configuration is kept), not a switch to the defaults.
        let required = global.configIsExplicit || FileManager.default.fileExists(atPath: configPath)
        // With [sync]: the policy the devices share, agreed at each load (`PolicyAgreement`).
        let agreed = Mutex(session.policyAgreement)
        do {
            try await AgentLifecycle.run(
                configuration: session.configuration, configPath: configPath, logger: logger,
                loadConfiguration: {
                    let own = try Self.loadConfiguration(path: configPath, required: required)
                    let agreement = Agent.agreePolicy(own, databasePath: databasePath, clock: clock, logger: logger)
                    agreed.withLock { $0 = agreement }
                    return agreement?.configuration ?? own
                },
                makeAgent: { configuration, reloaded in
                    let agent = Agent(configuration: configuration, store: store,
                                      adapters: CheckInMethod.adapters(for: configuration, clock: clock),
                                      socketPath: socketPath, configPath: configPath, policyAgreement: agreed.withLock { $0 },
                                      clock: clock, logger: logger, detect: { SetupCommand.detect($0) })
                    if reloaded {
                        logger.notice("configuration reloaded; \(agent.summary)")
                    } else {
                        printError("deskdays agent: " + tr("\(agent.startupSummary); database \(databasePath). Stop with Ctrl-C."))
                        if !agent.watchesAnything { printError(Self.nothingEnabledHelp(configPath: configPath)) }
                    }
                    return agent
                })
        } catch let error as ControlServer.SetupError {
            throw CLIError(error.description + ".")
        }
    }

    /// The configuration as `Session` loads it (holidays from an iCalendar file expanded ten years ahead).
    static func loadConfiguration(path: String, required: Bool) throws -> Configuration {
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        return try ConfigLoader.load(path: path, required: required, horizon: LocalDate(year: year + 10, month: 12, day: 31))
    }

    /// What to do on a machine where no method is enabled yet.
    static func nothingEnabledHelp(configPath: String) -> String {
        tr("""
        No check-in method is enabled, so the agent only serves manual check-ins \
        (`deskdays checkin`), the reminder and the fallback.
        Methods and how to enable one (in \(configPath)):
          nfc   a USB NFC reader and a tag on your desk: `deskdays enroll nfc`, then `deskdays enable nfc`
          gps   a serial/USB GPS receiver: `deskdays enroll gps`, then `deskdays enable gps` and its device
          qr    a webcam and a printed code: `deskdays enroll qr`, then `deskdays enable qr`
          wifi  the office network: `deskdays enroll wifi`, then `deskdays enable wifi`
          wired the network you dock on at the office: `deskdays enroll wired`, then `deskdays enable wired`
        `deskdays doctor` says which of them this build and this machine support, and what is missing.
        """) + "\n" + tr("`deskdays setup` asks which of them to use and sets them up.")
    }

}
