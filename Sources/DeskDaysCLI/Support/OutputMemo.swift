import DeskDaysMemo
import Foundation

/// Remembers the last answer of `deskdays status` and `deskdays report`
/// for exactly the same question, so a status bar polling every few seconds
/// gets it back without parsing, configuration, SQLite or ten years of
/// streaks: the `deskdays` launcher replays it (`AnswerMemo`) before it
/// would start this program. The answer is recomputed on the first run
/// after anything it depends on changes.
///
/// The question ("request") is, byte for byte: the arguments, the working
/// folder, the whole environment and the identity of this executable. The
/// answer is stored with the state of every file it was computed from —
/// the configuration, its holiday calendars, the database and its `-wal`,
/// and the time-zone files — and, when "today" comes from the clock, with
/// the local day it belongs to. A replay requires the same request, every
/// file in the same state (device, inode, size, modification and
/// status-change times) and the clock inside that day. Anything else — a
/// check-in, an edited configuration, midnight, another flag or variable —
/// is a miss, and the command runs in full.
///
/// Writers at work: the files' states are taken before the answer is
/// computed and again before it is stored; an answer is only stored when
/// they are equal and every file was last changed long enough before the
/// command started that a later change cannot leave the same time stamp
/// (the "racily clean" rule of git's index): 50 ms where the stamps have
/// sub-second parts (they advance by kernel ticks), two seconds where they
/// are whole seconds (FAT, ext3, some network file systems). So a check-in
/// the agent stores while a `status` runs is never hidden behind its answer.
///
/// Only successful, complete answers are stored (never an error, never
/// `--follow`, never `report --html`, which writes a file). The memo is a
/// cache: files of mode 0600 in `$XDG_CACHE_HOME/deskdays/answers` (0700),
/// at most `AnswerMemo.limit` of them, never required, and
/// `DESKDAYS_NO_CACHE=1` turns it off. They hold what the command printed —
/// the same figures the database already holds — and nothing more.
enum OutputMemo {
    /// For `--help` and the manual page.
    static let help = """
        The answer is remembered (in $XDG_CACHE_HOME/deskdays/answers) and printed again \
        while the command line, environment, configuration, database and day stay the same; \
        DESKDAYS_NO_CACHE=1 computes it every time.
        """

    /// Prints `text` (the command's whole standard output) and, when
    /// `remember` holds, stores it as the answer to this invocation, computed
    /// from `inputs` (taken before the answer was).
    static func emit(_ text: String, session: Session, inputs: AnswerMemo.Inputs, remember: Bool = true) {
        print(text, terminator: "")
        guard remember else { return }
        // stdout must reach the reader before any time is spent on the memo.
        fflush(nil)
        var day: (start: Int, end: Int)?
        if session.nowIsFromClock {
            guard let bounds = dayBounds(session) else { return }
            day = bounds
        }
        AnswerMemo.store(Array(text.utf8), arguments: CommandLine.arguments, identity: "/proc/self/exe",
                         day: day, inputs: inputs)
    }

    /// The session and the state of its input files, taken in that order
    /// after the clock: a file changed while the command reads it is either
    /// too fresh for the time the command started, or no longer in the
    /// state taken here when the answer is stored.
    static func start(_ options: GlobalOptions) throws -> (Session, AnswerMemo.Inputs) {
        let started = AnswerMemo.Instant.now()
        let session = try Session(options)
        return (session, AnswerMemo.Inputs(files: inputs(session), started: started))
    }

    /// Every file the answer was computed from.
    static func inputs(_ session: Session) -> [String] {
        var files = [session.options.configPath] + session.configuration.holidayCalendars
        files.append(session.options.databasePath)
        // The database's committed changes not yet copied into it.
        files.append(session.options.databasePath + "-wal")
        files += ["/etc/localtime", "/etc/timezone"]
        let zone = session.policy.timeZone.identifier
        if !zone.contains(".."), !zone.hasPrefix("/") { files.append("/usr/share/zoneinfo/" + zone) }
        return files
    }

    /// The first and last whole second (UTC, since 1970) of today in the
    /// policy's time zone; nil when the zone's calendar gives no clean day.
    static func dayBounds(_ session: Session) -> (start: Int, end: Int)? {
        let policy = session.policy, today = session.today
        let tomorrow = today.adding(days: 1)
        let start = policy.instant(of: today, hour: 0).timeIntervalSince1970.rounded(.up)
        let end = policy.instant(of: tomorrow, hour: 0).timeIntervalSince1970.rounded(.down)
        // Checked rather than trusted: the second before `end` is today, `end` is not.
        guard start < end,
              policy.localDate(of: Date(timeIntervalSince1970: start)) == today,
              policy.localDate(of: Date(timeIntervalSince1970: end - 1)) == today,
              policy.localDate(of: Date(timeIntervalSince1970: end)) != today else { return nil }
        return (Int(start), Int(end))
    }
}
