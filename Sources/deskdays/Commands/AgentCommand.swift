import ArgumentParser
import DeskDaysAgent
import DeskDaysStore
import Dispatch
import Foundation
import Logging

/// `deskdays agent`: adapters → pipeline → store, in the foreground.
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Run the agent: watch the enabled check-in methods and store arrivals.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try Session(global)
        let store = try session.writeStore()
        let logger = Logger(label: "deskdays.agent")
        let agent = Agent(configuration: session.configuration, store: store, logger: logger)
        printError("deskdays agent: \(agent.summary); database \(global.databasePath). Stop with Ctrl-C.")
        let task = Task { await agent.run() }
        // SIGTERM and SIGINT end the agent gracefully: adapters are cancelled
        // and interrupt their blocking waits.
        // A launcher may hand us these signals blocked (Foundation's Process
        // does); unblock them so that stopping the agent always works.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGTERM, SIGINT] { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            sources.append(source)
        }
        await task.value
        sources.forEach { $0.cancel() }
    }
}
