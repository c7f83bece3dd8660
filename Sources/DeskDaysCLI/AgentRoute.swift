import AgentSocket
import DeskDaysControl
import DeskDaysCore
import DeskDaysPipeline
import Foundation
import Logging

/// Routes a command through the running agent: writes, so the agent's
/// pipeline stays the single writer (docs/design.md) and its subscribers
/// hear about the change at once; `status`/`report`, so the agent's current
/// answer is printed rather than computed again.
///
/// No agent (no socket, nobody listening), or an agent serving another
/// database file: nil, and the command does the work itself.
enum AgentRoute {
    static func send(_ request: ControlProtocol.Request, socket: SocketOptions, global: GlobalOptions) throws -> [String: Any]? {
        let path = socket.socketPath
        // A busy or stuck agent is waited for briefly; the write then goes to the database directly.
        switch ControlClient.connect(path: path, timeout: 5) {
        case .noAgent:
            return nil
        case .untrusted(let doubt):
            printError(untrustedNote(path, doubt))
            return nil
        case .failed(let reason):
            throw CLIError(tr("\(reason); fix its permissions, or stop the agent to write the database directly."))
        case .connected(let client):
            switch client.send(request, database: global.databasePath) {
            case .success(let reply):
                return reply
            case .failure(let failure) where failure.code == "other_database":
                return nil
            case .failure(let failure) where failure.code == "busy" || failure.code == "timeout":
                // Safe to repeat: a manual record's latest copy wins and a check-in is kept once per day and source.
                printError("deskdays: " + (failure.code == "busy"
                    ? tr("the agent at \(path) is too busy (too many open connections); writing the database directly.")
                    : tr("the agent at \(path) is not answering; writing the database directly.")))
                return nil
            case .failure(let failure) where failure.code == "disconnected":
                throw CLIError(tr("The agent at \(path) stopped before confirming; check with `deskdays days` whether it was recorded."))
            case .failure(let failure):
                throw CLIError(tr("The agent refused: \(failure.message)."))
            }
        }
    }

    /// The note on stderr when the socket is not trusted: the work goes on without it.
    static func untrustedNote(_ path: String, _ doubt: String) -> String {
        "deskdays: " + tr("not using the agent socket \(path) (\(doubt)); working on the database directly.")
    }

    /// One automatic check-in, through the agent when it runs, else through this process's pipeline.
    static func submit(_ event: CheckInEvent, session: Session, socket: SocketOptions) async throws -> SubmitOutcome {
        guard let reply = try send(.event(source: event.source, rule: event.rule, at: event.time, kind: event.kind),
                                   socket: socket, global: session.options) else {
            return try await session.pipeline().submit(event)
        }
        let date = (reply["date"] as? String).flatMap { LocalDate($0) } ?? session.policy.localDate(of: event.time)
        return reply["stored"] as? Bool == true ? .stored(date) : .duplicate(date)
    }

    /// Whether an agent at `socketPath` serves this database with this
    /// configuration: it then merges the sync folder and publishes this
    /// device's lines itself, and a read only reads (docs/cli.md "Sync").
    /// Any doubt (no agent, another database or configuration, no reply): false.
    static func servesSync(socketPath: String, global: GlobalOptions) -> Bool {
        guard case .connected(let client) = ControlClient.connect(path: socketPath, timeout: 2),
              let reply = client.answer(.status(.json), database: global.databasePath), reply.ok,
              let config = reply.config else { return false }
        return config == AgentPaths.canonical(global.configPath)
    }

    /// The agent's current answer to `status`/`report` (its `output`), when
    /// the agent serves this database and configuration and "now" is the
    /// clock's; nil otherwise, or on any trouble: the caller then computes
    /// the answer itself, which is always right, only slower.
    static func answer(_ request: ControlProtocol.Request, socket: SocketOptions, global: GlobalOptions) -> String? {
        guard global.today == nil, (processEnvironment["DESKDAYS_NOW"] ?? "").isEmpty,
              (processEnvironment["DESKDAYS_TODAY"] ?? "").isEmpty else { return nil }
        let connection = ControlClient.connect(path: socket.socketPath, timeout: 2)
        if case .untrusted(let doubt) = connection {
            printError(untrustedNote(socket.socketPath, doubt))
            return nil
        }
        guard case .connected(let client) = connection,
              let reply = client.answer(request, database: global.databasePath),
              reply.ok, reply.clock == "system", let config = reply.config, config == AgentPaths.canonical(global.configPath)
        else { return nil }
        // The status-bar formats carry words (a tooltip, a label): only in this process's language.
        if case .status(let format) = request, format != .json, reply.locale != Localization.signature { return nil }
        Logger(label: "deskdays").info("answered by the agent at \(socket.socketPath)")
        return reply.output
    }
}
