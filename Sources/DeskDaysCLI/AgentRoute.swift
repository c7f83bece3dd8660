import Localization
import CommandSupport
import AgentSocket
import DeskDaysControl
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import Logging
import Synchronization

/// Routes a command through the running agent: writes, so the agent's
/// pipeline stays the single writer (docs/design.md) and its subscribers
/// hear about the change at once; `status`/`report`, so the agent's current
/// answer is printed rather than computed again.
///
/// No agent (no socket, nobody listening), an agent of another protocol
/// version, or an agent whose answer is not this command's (the agent
/// decides: `ControlMessage.refusal`): nil, and the command does the work itself.
enum AgentRoute {
    /// `id`: a write's request id (`newRequestID`); without the agent's
    /// confirmation the command writes it itself under that id (`direct`).
    static func send(_ request: ControlProtocol.Request, socket: SocketOptions, global: GlobalOptions,
                     id: String? = nil) throws -> WireObject? {
        let path = socket.socketPath
        // A busy or stuck agent is waited for briefly; the write then goes to the database directly.
        switch ControlConnection.connect(path: path, waiting: .write) {
        case .noAgent:
            return nil
        case .untrusted(let doubt):
            printError(untrustedNote(path, doubt))
            return nil
        case .failed(let reason):
            throw CLIError(tr("\(reason); fix its permissions, or stop the agent to write the database directly."))
        case .connected(let connection):
            switch connection.ask(ControlProtocol.encode(request, scope: AnswerScope(database: global.databasePath), id: id)) {
            case .success(let reply):
                return reply
            case .failure(let failure) where failure.code == ControlMessage.Code.otherDatabase:
                return nil
            case .failure(let failure) where failure.code == ControlMessage.Code.version:
                // Refused before it was acted on (or an agent from before versions, whose write is safe to repeat).
                printError(versionNote(path, failure))
                return nil
            case .failure(let failure) where failure.code == ControlMessage.Code.busy || failure.code == ControlMessage.Code.timeout:
                // Written directly under the same request id: the agent, should it read it later, does nothing.
                printError("deskdays: " + (failure.code == ControlMessage.Code.busy
                    ? tr("the agent at \(path) is too busy (too many open connections); writing the database directly.")
                    : tr("the agent at \(path) is not answering; writing the database directly.")))
                return nil
            case .failure(let failure) where failure.code == ControlMessage.Code.disconnected && id != nil:
                printError("deskdays: " + tr("the agent at \(path) stopped before confirming; writing the database directly (what it committed is not done twice)."))
                return nil
            case .failure(let failure) where failure.code == ControlMessage.Code.disconnected:
                throw CLIError(tr("The agent at \(path) stopped before confirming; check with `deskdays days` whether it was recorded."))
            case .failure(let failure):
                throw CLIError(tr("The agent refused: \(failure.message)."))
            }
        }
    }

    /// A new write request's id (docs/design.md "Once or not at all").
    static func newRequestID() -> String { UUID().uuidString.lowercased() }

    /// `body`, this command's own write of request `id` once the agent did
    /// not confirm it; nil when the agent carried it out meanwhile (said on stderr).
    static func direct<T>(_ id: String, _ body: () async throws -> T) async throws -> T? {
        do {
            return try await WriteRequest.$current.withValue(WriteRequest(id: id)) { try await body() }
        } catch StoreError.alreadyDone {
            printError("deskdays: " + tr("the agent carried out this request meanwhile; it was not done twice."))
            return nil
        }
    }

    /// The note on stderr when the socket is not trusted: the work goes on without it.
    static func untrustedNote(_ path: String, _ doubt: String) -> String {
        "deskdays: " + tr("not using the agent socket \(path) (\(doubt)); working on the database directly.")
    }

    /// The note on stderr when the agent speaks another protocol version: the work goes on without it.
    static func versionNote(_ path: String, _ failure: ControlFailure) -> String {
        let theirs = failure.reply.int(.version) ?? 0
        return "deskdays: " + tr("the agent at \(path) speaks control protocol \(theirs), this deskdays \(ControlMessage.version); working without it until it is restarted (`systemctl --user restart deskdays`).")
    }

    /// One automatic check-in, through the agent when it runs, else through this process's pipeline.
    static func submit(_ event: CheckInEvent, session: Session, socket: SocketOptions) async throws -> SubmitOutcome {
        let id = newRequestID()
        guard let reply = try send(.event(source: event.source, rule: event.rule, at: event.time, kind: event.kind),
                                   socket: socket, global: session.options, id: id) else {
            let pipeline = try session.pipeline()
            return try await direct(id) { try await pipeline.submit(event, asked: session.now) }
                ?? .duplicate(session.policy.localDate(of: event.time))
        }
        let date = reply.string(.date).flatMap { LocalDate($0) } ?? session.policy.localDate(of: event.time)
        return reply.bool(.stored) == true ? .stored(date) : .duplicate(date)
    }

    /// What this command's answer depends on: its files, its "now" (`--today`,
    /// `DESKDAYS_NOW`, `DESKDAYS_TODAY` fix it) and its language.
    static func scope(_ global: GlobalOptions) -> AnswerScope {
        .asker(database: global.databasePath, config: global.configPath, dayGiven: global.today != nil)
    }
}

/// One invocation's way to the agent's answers at one socket: what it
/// learnt from its one exchange (`AgentContact`), handed by the launcher or
/// asked here, is kept for the rest of the command (docs/cli.md "Ask
/// once"); a read asks at most once. Made by the command, given to its `Session`.
package final class AgentLink: Sendable {
    package let path: String
    private let learnt = Mutex<AgentContact?>(nil)

    package init(path: String) {
        self.path = path
    }

    /// What the launcher handed this process (it asked the agent already):
    /// said here, once, by the caller that takes it.
    func handed() -> AgentContact? {
        guard let handed = AgentContact.handed(socket: path) else { return nil }
        learnt.withLock { $0 = handed }
        return handed
    }

    /// What this invocation knows from the agent, handed or asked.
    var contact: AgentContact? {
        handed() ?? learnt.withLock { $0 }
    }

    /// One request; what the agent said is kept (`contact`).
    private func ask(_ request: WireObject) -> (AgentContact, WireObject?) {
        let outcome: (AgentContact, WireObject?)
        switch ControlConnection.connect(path: path, waiting: .answer) {
        case .connected(let connection):
            switch connection.ask(request) {
            case .success(let reply): outcome = (.answered, reply)
            case .failure(let failure): outcome = (.refused(failure), nil)
            }
        case let failed:
            outcome = (AgentContact(failed)!, nil)
        }
        learnt.withLock { $0 = outcome.0 }
        return outcome
    }

    /// The note on stderr when the agent is there but not used.
    func say(_ contact: AgentContact) {
        switch contact {
        case .untrusted(let doubt): printError(AgentRoute.untrustedNote(path, doubt))
        case .refused(let failure) where failure.code == ControlMessage.Code.version: printError(AgentRoute.versionNote(path, failure))
        default: break
        }
    }

    /// Whether the agent serves this database with this configuration: it
    /// then merges the sync folder and publishes this device's lines itself,
    /// and a read only reads (docs/cli.md "Sync"). Any doubt (no agent,
    /// another version, database or configuration, no reply): false. Known
    /// from the one exchange this invocation had, else asked with `hello`,
    /// which computes no answer. The agent decides, as for every request
    /// (`ControlMessage.refusal`): asked with the files alone, it refuses
    /// only another database or configuration.
    func servesSync(_ global: GlobalOptions) -> Bool {
        if let known = contact { return known.servesFiles }
        let files = AnswerScope(database: global.databasePath, config: global.configPath)
        return ask(ControlProtocol.encode(.hello, scope: files)).0.servesFiles
    }

    /// The agent's current answer to `status`/`report` (its `output`), when
    /// the agent says it is this command's; nil otherwise, or on any trouble:
    /// the caller then computes the answer itself, which is always right, only
    /// slower. Not asked when the launcher asked already.
    func answer(_ request: ControlProtocol.Request, global: GlobalOptions) -> String? {
        if let handed = handed() {
            say(handed)
            return nil
        }
        let (contact, reply) = ask(ControlProtocol.encode(request, scope: AgentRoute.scope(global)))
        say(contact)
        guard let reply else { return nil }
        Logger(label: "deskdays").info("answered by the agent at \(path)")
        return reply.string(.output)
    }
}
