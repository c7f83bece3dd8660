import Files
import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysStore

/// `deskdays backup FILE`: a consistent copy of the database, taken with
/// SQLite's backup API while the agent may be writing.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: tr("Write a consistent copy of the database to a new file."),
        discussion: tr("""
        Safe while the agent runs: the copy is one consistent moment of the \
        history, the write-ahead log included (copying deskdays.sqlite alone \
        may miss the latest check-ins). FILE must not exist; it is created \
        with mode 0600 and checked with SQLite's quick_check. Restore by \
        pointing --database (or DESKDAYS_DATABASE) at it, or by copying it \
        over the database while the agent is stopped.
        """))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(tr("The new file to write.")))
    var file: String

    func run() async throws {
        let session = try Session(global)
        guard PathCheck.reach(global.databasePath) == .present else {
            throw CLIError(tr("there is no database at \(global.databasePath) to back up; check --database or DESKDAYS_DATABASE."))
        }
        let store = try session.readStore()
        do {
            try store.backUp(to: file)
        } catch {
            throw CLIError(tr("could not write the backup \(file): \(error.description); choose another file or folder."))
        }
        print(tr("Wrote a copy of \(global.databasePath) to \(file)."))
    }
}
