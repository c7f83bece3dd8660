#if canImport(Glibc)
import Glibc
#endif

/// The remembered answers of `deskdays status` and `deskdays report`, at
/// the level of bytes and files: no Foundation, so the `deskdays` launcher
/// that replays them starts as fast as a C program's Swift equivalent.
/// What an answer depends on, and why it can be trusted, is told in
/// `DeskDaysCLI/Support/OutputMemo.swift`, which stores them.
///
/// A memo file is: the request (NUL-ended fields: a version line, the
/// argument count and arguments, the working folder, the sorted
/// environment, the command-line executable's fingerprint, then an empty
/// field), the local day's first and last second (or "-" twice), the number
/// of input files and, for each, its path and fingerprint, then the answer's
/// bytes up to the end of the file.
public enum AnswerMemo {
    /// The commands whose answers are remembered.
    public static let commands: Set<String> = ["status", "report"]
    /// At most this many answers are kept (oldest removed first).
    public static let limit = 32

    // MARK: - Replay

    /// Writes the remembered answer to standard output and returns true when
    /// there is one for exactly this invocation and nothing it depends on
    /// changed. `identity` is the executable that computes answers.
    public static func replay(arguments: [String], identity: String) -> Bool {
        guard arguments.count > 1, commands.contains(arguments[1]), !arguments.contains("--follow"),
              let folder = folder(), let request = request(arguments, identity: identity) else { return false }
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

    // MARK: - Storing

    /// The state of the files an answer is computed from, taken before the
    /// computation reads them (the clock first, then the files).
    public struct Inputs: Equatable, Sendable {
        /// When the command started, before it read any of the files.
        public let started: Instant
        public let files: [String]
        let states: [FileState]

        public init(files: [String], started: Instant) {
            self.started = started
            self.files = files
            self.states = files.map(FileState.init)
        }
    }

    /// One `stat` of a file: its fingerprint ("-" when it does not exist,
    /// nil when it cannot be examined) and the time stamps that tell when it
    /// last changed. A database's `-wal` counts by size and modification time
    /// only, and an empty one as absent (`QuickCheckMemo`'s rule: readers
    /// create and chown it without changing what it holds).
    struct FileState: Equatable, Sendable {
        let fingerprint: String?
        let stamps: [Instant]

        init(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                fingerprint = errno == ENOENT || errno == ENOTDIR ? "-" : nil
                stamps = []
                return
            }
            let modified = Instant(info.st_mtim), changed = Instant(info.st_ctim)
            if path.hasSuffix("-wal") {
                fingerprint = info.st_size == 0 ? "-" : "\(info.st_size):\(modified)"
                stamps = info.st_size == 0 ? [] : [modified]
            } else {
                fingerprint = "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified):\(changed)"
                stamps = [modified, changed]
            }
        }

        /// Whether it changed too shortly before `now` (or after it) for its
        /// time stamps to tell a later change apart.
        func changedRecently(before now: Instant) -> Bool {
            stamps.contains { stamp in
                // Whole-second stamps (FAT, ext3, some network file systems): two seconds.
                // Finer ones: longer than a kernel tick, which is their real resolution.
                let window = stamp.nanoseconds == 0 ? 2_000_000_000 : racyWindow
                return now.nanoseconds(since: stamp) < window
            }
        }
    }

    /// A moment of the real-time clock.
    public struct Instant: Equatable, Sendable, CustomStringConvertible {
        let seconds: Int
        let nanoseconds: Int

        init(_ time: timespec) {
            seconds = time.tv_sec
            nanoseconds = time.tv_nsec
        }

        public static func now() -> Instant {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Instant(now)
        }

        func nanoseconds(since earlier: Instant) -> Int {
            (seconds - earlier.seconds) * 1_000_000_000 + (nanoseconds - earlier.nanoseconds)
        }

        public var description: String { "\(seconds).\(nanoseconds)" }
    }

    /// Stores `answer` for this invocation, computed from `inputs` on the
    /// local day `day` (first and last second; nil when "today" was given).
    /// Nothing is stored when a file cannot be examined, changed while the
    /// answer was computed, or changed so shortly before the command started
    /// that its time stamps could not tell a later change apart.
    public static func store(_ answer: [UInt8], arguments: [String], identity: String,
                             day: (start: Int, end: Int)?, inputs: Inputs, in folder: String? = folder()) {
        guard arguments.count > 1, commands.contains(arguments[1]),
              let folder, let request = request(arguments, identity: identity) else { return }
        guard Inputs(files: inputs.files, started: inputs.started) == inputs else { return }
        var record = request
        append(day.map { String($0.start) } ?? "-", to: &record)
        append(day.map { String($0.end) } ?? "-", to: &record)
        append(String(inputs.files.count), to: &record)
        for (path, state) in zip(inputs.files, inputs.states) {
            guard let fingerprint = state.fingerprint, !state.changedRecently(before: inputs.started) else { return }
            append(path, to: &record)
            append(fingerprint, to: &record)
        }
        record.append(contentsOf: answer)
        save(record, in: folder, as: name(of: request))
    }

    /// Files changed this recently (nanoseconds) make an answer too fresh to
    /// store: several kernel ticks (file times advance by ticks, 1–10 ms).
    public static let racyWindow = 50_000_000

    /// Whether `path` changed too recently before `now` (or after it) for
    /// its time stamps to tell a later change apart (`FileState`).
    static func changedRecently(_ path: String, now: timespec) -> Bool {
        FileState(path).changedRecently(before: Instant(now))
    }

    // MARK: - The request and its file

    /// `$XDG_CACHE_HOME/deskdays/answers` (or `~/.cache/…`); nil when the
    /// memo is off (`DESKDAYS_NO_CACHE`, or `DESKDAYS_LOG`: whoever asks
    /// for the log wants to see the work done) or neither variable is usable.
    public static func folder() -> String? {
        if let off = getenv("DESKDAYS_NO_CACHE"), off.pointee != 0, String(cString: off) != "0" { return nil }
        if let log = getenv("DESKDAYS_LOG"), log.pointee != 0 { return nil }
        return CacheFile.folder("answers") { getenv($0).map { String(cString: $0) } }
    }

    /// The question, as bytes: a version line, the arguments, the working
    /// folder, the environment (sorted) and the identity of the executable
    /// that computes answers, each ended by NUL, then an empty field.
    static func request(_ arguments: [String], identity: String) -> [UInt8]? {
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
        guard let binary = fingerprint(identity), binary != "-" else { return nil }
        append(binary, to: &bytes)
        append("", to: &bytes)
        return bytes
    }

    /// The memo file's name: a hash of the request (the file starts with
    /// the whole request, so a collision is only a miss).
    static func name(of request: [UInt8]) -> String { CacheFile.name(for: request) }

    /// A file's state: device, inode, size, modification and status-change
    /// times in nanoseconds; "-" when it does not exist; nil when it cannot
    /// be examined (`FileState`).
    public static func fingerprint(_ path: String) -> String? { FileState(path).fingerprint }

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

    /// Writes the memo and keeps the folder at `limit` files; failures are
    /// ignored (it is a cache).
    static func save(_ record: [UInt8], in folder: String, as name: String) {
        if CacheFile.write(record, to: folder + "/" + name) { prune(folder) }
    }

    /// Removes the oldest answers beyond `limit` (and temporary files a crash left).
    static func prune(_ folder: String) {
        guard let directory = opendir(folder) else { return }
        var dated: [(name: String, time: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            dated.append((name, name.hasSuffix(".tmp") ? 0 : info.st_mtim.tv_sec))
        }
        closedir(directory)
        guard dated.count > limit else { return }
        for old in dated.sorted(by: { $0.time < $1.time }).prefix(dated.count - limit) {
            unlink(folder + "/" + old.name)
        }
    }
}
