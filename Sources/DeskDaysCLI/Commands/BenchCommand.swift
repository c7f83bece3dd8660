import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation

/// `deskdays bench-ingest` (hidden): times N automatic check-ins through the
/// real pipeline in one process, each committed durably, for bench/ingest.sh.
///
/// It takes its own `--database` and refuses an existing file, so it can
/// never write made-up check-ins into the user's real database.
struct BenchIngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-ingest", abstract: tr("Time check-ins through the pipeline (benchmark)."), shouldDisplay: false)

    @Option(help: ArgumentHelp(tr("A database file that does not exist yet.")))
    var database: String

    @Option(help: ArgumentHelp(tr("How many check-ins.")))
    var count = 10_000

    func validate() throws {
        guard count > 0 else { throw ValidationError(tr("--count must be at least 1.")) }
        guard !FileManager.default.fileExists(atPath: database) else {
            throw ValidationError(tr("\(database) exists; the benchmark only writes to a new file, so name one that does not exist."))
        }
    }

    func run() async throws {
        let utc = Policy(timeZone: TimeZone(identifier: "UTC")!)
        let store = try AttendanceStore(path: database)
        let pipeline = CheckInPipeline(store: store, policy: utc, journal: store.journal(publishingTo: nil))
        // A distinct (date, source) per event, so every one is stored: five
        // sources a day, a new day every five events.
        let first = utc.instant(of: LocalDate(year: 2020, month: 1, day: 6)!, hour: 8)
        let events = (0..<count).map { index in
            CheckInEvent(source: Source.automatic[index % Source.automatic.count], rule: "bench",
                         time: first.addingTimeInterval(Double(index / Source.automatic.count) * 86_400 + Double(index % Source.automatic.count) * 60))
        }
        let clock = ContinuousClock()
        let start = clock.now
        for event in events {
            guard case .stored = try await pipeline.submit(event) else {
                throw CLIError(tr("An event the benchmark meant as new was a duplicate; the database was not empty."))
            }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("events=\(count) seconds=\(String(format: "%.6f", seconds))")
    }
}
