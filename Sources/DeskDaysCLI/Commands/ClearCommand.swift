import ArgumentParser
import DeskDaysCore

/// `deskdays clear`: removes the manual record of a date.
struct ClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove the manual record of a date (automatic check-ins stay).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: "The date, YYYY-MM-DD.")
    var date: String

    func run() async throws {
        let session = try Session(global)
        let day = try Session.date(date, option: "--date")
        // Through the running agent when there is one, else straight into the database.
        let removed: Int
        if let reply = try AgentRoute.send(.clear(date: day), socket: socket, global: global) {
            removed = reply["removed"] as? Int ?? 0
        } else {
            removed = try await session.pipeline().clearManual(date: day)
        }
        print(removed == 0 ? "\(day) had no manual record; nothing changed." : "Removed the manual record of \(day).")
    }
}
