import DeskDaysAnswer
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation

extension Session {
    /// What `status` and `report` print, and what the views draw (`Answers`).
    var answers: Answers { Answers(policy: policy, locale: reportLocale) }

    /// The report for `selector`, each date's resolved day and the streaks (`Answers.reportData`).
    func reportData(_ selector: PeriodSelector = .current, covering: DateSpan? = nil) throws -> ReportData {
        try answers.reportData(selector, covering: covering, store: try readStore(), today: today)
    }

    /// Human output follows the user's locale (`LC_ALL`, `LC_TIME`, `LC_NUMERIC`, `LANG`).
    var reportLocale: ReportLocale { ReportLocale(environment: processEnvironment) }
}

/// Writes a file the program creates: mode 0600 (docs/cli.md), replacing an old one.
func writeUserFile(_ path: String, contents: Data) throws {
    let url = URL(fileURLWithPath: path)
    do {
        try contents.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    } catch {
        throw CLIError("Cannot write \(path) (\((error as NSError).localizedDescription)); choose a path in a folder you can write to.")
    }
}
