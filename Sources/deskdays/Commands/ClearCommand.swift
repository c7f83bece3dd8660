import ArgumentParser
import DeskDaysCore

/// `deskdays clear`: removes the manual record of a date.
struct ClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove the manual record of a date (automatic check-ins stay).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The date, YYYY-MM-DD.")
    var date: String

    func run() async throws {
        let session = try Session(global)
        let day = try Session.date(date, option: "--date")
        let removed = try await session.pipeline().clearManual(date: day)
        print(removed == 0 ? "\(day) had no manual record; nothing changed." : "Removed the manual record of \(day).")
    }
}
