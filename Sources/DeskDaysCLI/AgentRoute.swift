import DeskDaysControl
import Foundation

/// Routes a writing command through the running agent, so the agent's
/// pipeline stays the single writer (DESIGN.md) and its subscribers hear
/// about the change at once.
///
/// No agent (no socket, nobody listening), or an agent serving another
/// database file: nil, and the command writes the database itself.
enum AgentRoute {
    static func send(_ request: ControlProtocol.Request, socket: SocketOptions, global: GlobalOptions) throws -> [String: Any]? {
        let path = socket.socketPath
        switch ControlClient.connect(path: path) {
        case .noAgent:
            return nil
        case .failed(let reason):
            throw CLIError("\(reason); fix its permissions, or stop the agent to write the database directly.")
        case .connected(let client):
            switch client.send(request, database: global.databasePath) {
            case .success(let reply):
                return reply
            case .failure(let failure) where failure.code == "other_database":
                return nil
            case .failure(let failure) where failure.code == "disconnected":
                throw CLIError("The agent at \(path) stopped before confirming; check with `deskdays days` whether it was recorded.")
            case .failure(let failure):
                throw CLIError("The agent refused: \(failure.message).")
            }
        }
    }
}
