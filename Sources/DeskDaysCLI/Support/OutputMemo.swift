import DeskDaysStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Remembers the last answer of `deskdays status` and `deskdays report`
/// for exactly the same question, so a status bar polling every few seconds
/// gets it back without parsing, configuration, SQLite or ten years of
/// streaks. The answer is recomputed on the first run after anything it
/// depends on changes.
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
/// Coarse file times: an answer is only stored when every one of those files
/// was last changed long enough before that a later change cannot leave the
/// same time stamp (the "racily clean" rule of git's index): 50 ms where the
/// stamps have sub-second parts (they advance by kernel ticks), two seconds
/// where they are whole seconds (FAT, ext3, some network file systems).
///
/// Only successful, complete answers are stored (never an error, never
/// `--follow`, never `report --html`, which writes a file). The memo is a
/// cache: files of mode 0600 in `$XDG_CACHE_HOME/deskdays/answers` (0700),
/// at most `limit` of them, never required, and `DESKDAYS_NO_CACHE=1` turns it
/// off. They hold what the command printed — the same figures the database
/// already holds — and nothing more.
package enum OutputMemo {
    /// The commands whose answers are remembered.
    static let commands: Set<String> = ["status", "report"]
    /// At most this many answers are kept (oldest removed first).
    static let limit = 32
    /// Files changed this recently (nanoseconds) make an answer too fresh to
    /// store: several kernel ticks (file times advance by ticks, 1–10 ms).
    static let racyWindow = 50_000_000
    /// For `--help` and the manual page.
    static let help = """
        The answer is remembered (in $XDG_CACHE_HOME/deskdays/answers) and printed again \
        while the command line, environment, configuration, database and day stay the same; \
        DESKDAYS_NO_CACHE=1 computes it every time.
        """

    // MARK: - Replay (runs before anything else, so it stays on plain C calls)

    /// Writes the remembered answer to standard output and returns true when
    /// there is one for exactly this invocation and nothing it depends on changed.
    package static func replay(arguments: [String] = CommandLine.arguments) -> Bool {
        guard arguments.count > 1, commands.contains(arguments[1]), !arguments.contains("--follow"),
              let folder = folder(), let request = request(arguments) else { return false }
        guard let contents = readOwnFile(folder + "/" + name(of: request)),
              contents.count > request.count, contents.starts(with: request) else { return false }
        var fields = Fields(contents, from: request.count)
        // The local day the answer belongs to ("-" when "today" was given).
        guard let from = fields.next(), let until = fields.next() else { return false }
        if from != "-" || until != "-" {
            guard let start = Int(from), let end = Int(until) else { return false }
            let now = time(nil)
            guard start <= now, now < end else { return false }
        }
        guard let countText = fields.next(), let count = Int(countText), count > 0 else { return false }
        for _ in 0..<count {
            guard let path = fields.next(), let stored = fields.next(), stored == fingerprint(path) else { return false }
        }
        guard let answer = fields.rest() else { return false }
        // Answered either way: a full run could not write to this standard output either.
        writeAll(answer)
        return true
    }

    // MARK: - Storing (after a full run)

    /// Prints `text` (the command's whole standard output) and, when
    /// `remember` holds, stores it as the answer to this invocation.
    static func emit(_ text: String, session: Session, remember: Bool = true) {
        print(text, terminator: "")
        guard remember else { return }
        // stdout must reach the terminal before any time is spent on the memo.
        fflush(nil)
        store(Array(text.utf8), session: session)
    }

    static func store(_ answer: [UInt8], session: Session, arguments: [String] = CommandLine.arguments) {
        guard arguments.count > 1, commands.contains(arguments[1]),
              let folder = folder(), let request = request(arguments) else { return }
        var record = request
        if session.nowIsFromClock {
            guard let day = dayBounds(session) else { return }
            append(String(day.start), to: &record)
            append(String(day.end), to: &record)
        } else {
            append("-", to: &record)
            append("-", to: &record)
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let files = inputs(session)
        append(String(files.count), to: &record)
        for path in files {
            guard let state = fingerprint(path), !changedRecently(path, now: now) else { return }
            append(path, to: &record)
            append(state, to: &record)
        }
        record.append(contentsOf: answer)
        save(record, in: folder, as: name(of: request))
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

    // MARK: - The request and its file

    /// `$XDG_CACHE_HOME/deskdays/answers` (or `~/.cache/…`); nil when the
    /// memo is off (`DESKDAYS_NO_CACHE`, or `DESKDAYS_LOG`: whoever asks
    /// for the log wants to see the work done) or neither variable is usable.
    static func folder() -> String? {
        if let off = getenv("DESKDAYS_NO_CACHE"), off.pointee != 0, String(cString: off) != "0" { return nil }
        if let log = getenv("DESKDAYS_LOG"), log.pointee != 0 { return nil }
        if let cache = getenv("XDG_CACHE_HOME"), cache.pointee == UInt8(ascii: "/") {
            return String(cString: cache) + "/deskdays/answers"
        }
        if let home = getenv("HOME"), home.pointee == UInt8(ascii: "/") {
            return String(cString: home) + "/.cache/deskdays/answers"
        }
        return nil
    }

    /// The question, as bytes: a version line, the arguments, the working
    /// folder, the environment (sorted) and this executable's identity, each ended by NUL.
    static func request(_ arguments: [String]) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        append("deskdays-answer 1", to: &bytes)
        append(String(arguments.count - 1), to: &bytes)
        for argument in arguments.dropFirst() { append(argument, to: &bytes) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        append(cString: buffer, to: &bytes)
        // In sorted order: the same variables are the same question in whatever order a parent passes them.
        var variables: [UnsafeMutablePointer<CChar>] = []
        var entry = environ
        while let variable = entry.pointee {
            variables.append(variable)
            entry += 1
        }
        variables.sort { strcmp($0, $1) < 0 }
        for variable in variables { append(cString: variable, to: &bytes) }
        guard let binary = fingerprint("/proc/self/exe"), binary != "-" else { return nil }
        append(binary, to: &bytes)
        append("", to: &bytes)
        return bytes
    }

    /// The memo file's name: a 64-bit FNV-1a hash of the request (the file
    /// starts with the whole request, so a collision is only a miss).
    static func name(of request: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in request { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// A file's state: device, inode, size, modification and status-change
    /// times in nanoseconds; "-" when it does not exist; nil when it cannot
    /// be examined. The database's `-wal` counts by size and modification
    /// time only, and an empty one as absent (`QuickCheckMemo`'s rule: readers
    /// create and chown it without changing what it holds).
    static func fingerprint(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT || errno == ENOTDIR ? "-" : nil }
        if path.hasSuffix("-wal") {
            return info.st_size == 0 ? "-" : "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):"
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// Whether `path` changed too recently before `now` (or after it) for
    /// its time stamps to tell a later change apart; an empty `-wal` counts
    /// as absent, as in `fingerprint`.
    static func changedRecently(_ path: String, now: timespec) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let wal = path.hasSuffix("-wal")
        if wal, info.st_size == 0 { return false }
        let stamps = wal ? [info.st_mtim] : [info.st_mtim, info.st_ctim]
        return stamps.contains { stamp in
            // Whole-second stamps (FAT, ext3, some network file systems): two seconds.
            // Finer ones: longer than a kernel tick, which is their real resolution.
            let window: Int = stamp.tv_nsec == 0 ? 2_000_000_000 : racyWindow
            let age = (now.tv_sec - stamp.tv_sec) * 1_000_000_000 + (now.tv_nsec - stamp.tv_nsec)
            return age < window
        }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    private static func append(cString: UnsafePointer<CChar>, to bytes: inout [UInt8]) {
        let length = strlen(cString)
        cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
        bytes.append(0)
    }

    /// The NUL-ended text fields after the request, then the answer itself.
    struct Fields {
        let bytes: [UInt8]
        var position: Int

        init(_ bytes: [UInt8], from position: Int) {
            self.bytes = bytes
            self.position = position
        }

        mutating func next() -> String? {
            guard let end = bytes[position...].firstIndex(of: 0) else { return nil }
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }

        func rest() -> ArraySlice<UInt8>? { position < bytes.count ? bytes[position...] : nil }
    }

    /// The file's bytes when it is a regular file owned by this user and
    /// writable by nobody else (a memo is trusted as much as the database).
    static func readOwnFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
              info.st_mode & 0o022 == 0, info.st_size > 0, info.st_size < 16 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    /// Writes every byte to standard output; false if it could not.
    @discardableResult
    static func writeAll(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Writes the memo (temporary file, then rename) and keeps the folder
    /// at `limit` files; failures are ignored (it is a cache).
    static func save(_ record: [UInt8], in folder: String, as name: String) {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder) {
            try? manager.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                         attributes: [.posixPermissions: 0o700])
        }
        let target = folder + "/" + name
        let temporary = target + ".\(getpid()).tmp"
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let written = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == record.count, rename(temporary, target) == 0 else {
            unlink(temporary)
            return
        }
        prune(folder)
    }

    /// Removes the oldest answers beyond `limit` (and temporary files a crash left).
    static func prune(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count > limit else { return }
        var dated: [(String, Int)] = []
        for name in names {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            dated.append((name, name.hasSuffix(".tmp") ? 0 : info.st_mtim.tv_sec))
        }
        for (name, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(max(0, dated.count - limit)) {
            unlink(folder + "/" + name)
        }
    }
}
