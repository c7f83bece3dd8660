import DeskDaysCore
import DeskDaysStore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Check-ins from devices without DeskDays (docs/cli.md "Sync", "Other
/// devices without DeskDays"; docs/design.md "Sync", "The inbox"): files
/// `inbox/*.txt` in the sync folder, one per writer, lines
/// `TIME arrive|leave RULE` (`InboxLine`).
///
/// Every device reads the inbox itself, and never journals what it read:
/// each file is a device of its own to the store, whose id is a function of
/// the file's name, each line a journal line of that device, numbered by
/// its line number and its content (`seq`) and clocked at its own time. So
/// the store's merge does the rest as for any other device's journal: a
/// line read again is held already, a late one replays its date, and every
/// device that reads the same lines holds the same lines and so the same
/// rows. Nothing is written to the inbox.
extension Synchronizer {
    /// How this device reads inbox lines, from its configuration: the date
    /// of a time (the policy's zone and `day_starts_at`, as for every
    /// automatic sign) and the check `event --rule` applies to a rule name.
    public struct InboxRules: Sendable {
        public var localDate: @Sendable (Date) -> LocalDate
        public var ruleProblem: @Sendable (String) -> String?

        public init(localDate: @escaping @Sendable (Date) -> LocalDate, ruleProblem: @escaping @Sendable (String) -> String?) {
            self.localDate = localDate
            self.ruleProblem = ruleProblem
        }

        /// Dates as `policy` gives them to every automatic sign.
        public init(policy: Policy, ruleProblem: @escaping @Sendable (String) -> String?) {
            self.init(localDate: { policy.localDate(of: $0) }, ruleProblem: ruleProblem)
        }
    }

    /// An inbox file: its name as `sync status` shows it (`inbox/phone.txt`),
    /// its path, and the id of the device it is to the store.
    public struct InboxFile: Sendable {
        public var name: String
        public var path: String
        public var id: String
    }

    /// The inbox folder.
    public var inboxFolder: String { folder + "/inbox" }

    /// The id of the inbox file named `name`: the same on every device.
    public static func inboxID(_ name: String) -> String { JournalEntry.fnv128("deskdays inbox\n" + name) }

    /// The `*.txt` files of the inbox folder by name (none when it is
    /// missing); hidden ones and synchronisers' temporary files are not.
    /// Whether each is a regular file is `openFile`'s to say.
    public func inboxFiles() -> [InboxFile] {
        guard inbox != nil, let directory = opendir(inboxFolder) else { return [] }
        defer { closedir(directory) }
        var files: [InboxFile] = []
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard file.hasSuffix(".txt"), !file.hasPrefix("."), !file.hasPrefix("~") else { continue }
            let name = "inbox/" + file
            files.append(InboxFile(name: name, path: inboxFolder + "/" + file, id: Self.inboxID(name)))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// An inbox file read whole.
    struct InboxReading {
        var text = InboxLine.Text()
        /// Its check-ins as journal lines of its device, in file order.
        var entries: [JournalEntry] = []
        /// Each line skipped (its index) and why.
        var skipped: [(line: Int, reason: String)] = []
    }

    /// Reads the inbox file `file` whole; a warning instead when it is not
    /// a regular file or cannot be read; nil when it went away, or is
    /// `unchanged` bytes long (what was merged of it).
    func readInbox(_ file: InboxFile, unchanged: Int? = nil) -> Result<InboxReading, SyncFailure>? {
        let fd: Int32
        switch Self.openFile(file.path) {
        case .file(let opened): fd = opened
        case .absent: return nil
        case .unreadable(let reason):
            return .failure(SyncFailure(description: tr("cannot read \(file.name) in the sync folder (\(reason)); its check-ins wait until it can be read")))
        case .notAFile(let kind):
            return .failure(SyncFailure(description: tr("\(file.name) in the sync folder is \(kind), not an inbox file; it is not read (remove it)")))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) != unchanged else { return nil }
        var reading = InboxReading()
        reading.text = InboxLine.text(Self.readBytes(fd, from: 0, to: Int64(info.st_size)))
        for (index, line) in reading.text.lines.enumerated() {
            guard let line else {
                reading.skipped.append((index, tr("it is longer than \(InboxLine.maximumBytes) bytes, or not text")))
                continue
            }
            switch entry(line, number: index + 1, of: file) {
            case .none: continue
            case .some(.success(let entry)): reading.entries.append(entry)
            case .some(.failure(let problem)): reading.skipped.append((index, problem.description))
            }
        }
        return .success(reading)
    }

    /// Line `number` of `file` as a journal line of the file's device, or
    /// why it is skipped; nil for an empty line or a comment.
    func entry(_ text: String, number: Int, of file: InboxFile) -> Result<JournalEntry, SyncFailure>? {
        guard let inbox else { return nil }
        let line: InboxLine
        switch InboxLine.parse(text) {
        case .nothing: return nil
        case .bad(let reason): return .failure(SyncFailure(description: reason))
        case .checkIn(let parsed): line = parsed
        }
        // The range first: the calendar then sees only years DeskDays keeps.
        if let problem = Validation.timeProblem(line.time, now: now()) {
            return .failure(SyncFailure(description: tr("its time: \(problem)")))
        }
        let date = inbox.localDate(line.time)
        guard date.isSupported else { return .failure(SyncFailure(description: tr("its date \(date) is \(LocalDate.unsupportedPhrase)"))) }
        if let problem = inbox.ruleProblem(line.rule) { return .failure(SyncFailure(description: tr("its rule: \(problem)"))) }
        // Its line number and its content: the same line read again is
        // the same line; one rewritten in place (a file replaced) is another.
        guard number < 1 << 20 else {
            return .failure(SyncFailure(description: tr("an inbox file is read up to its line \((1 << 20) - 1)")))
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        let hash = Int64(JournalEntry.fnv128(words).prefix(5), radix: 16) ?? 0
        let sign = LatestSign(date: date, source: .external, at: line.time, kind: line.kind)
        let entry = JournalEntry(device: file.id, name: file.name, seq: Int64(number) << 20 | hash,
                                 time: HLC(wall: HLC.milliseconds(line.time), counter: 0), clock: nil,
                                 change: .sign(sign, rule: line.rule))
        // The journal's own door, for what the checks above did not see.
        if let problem = entry.problem(now: now()) { return .failure(SyncFailure(description: problem)) }
        return .success(entry)
    }

    /// Applies every inbox file's new lines (`merge`'s last step). A file
    /// is read again whole when its size changed since the store last saw
    /// it; the lines held already change nothing. Lines skipped since then
    /// are named in `report.skipped` (once: a command's stderr, the agent's log).
    func mergeInbox(_ report: inout MergeReport) throws {
        // An inbox another user can write is no phone of yours: not read.
        if inbox != nil, FileManager.default.fileExists(atPath: inboxFolder), let problem = PathCheck.trustProblem(inboxFolder) {
            report.warnings.append(tr("the inbox is not read: \(problem)"))
            return
        }
        let known = Dictionary(try store.syncDevices().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for file in inboxFiles() {
            let device = known[file.id]
            if device?.forgotten == true { continue }
            let before = Int(device?.mergedBytes ?? 0)
            let reading: InboxReading
            switch readInbox(file, unchanged: device == nil ? nil : before) {
            case .none: continue
            case .some(.failure(let failure)): report.warnings.append(failure.description); continue
            case .some(.success(let read)): reading = read
            }
            // Grown: its lines before `before` were seen; replaced or shrunk: all are new.
            let fresh = reading.skipped.filter { reading.text.size < before || reading.text.starts[$0.line] >= before }
            for (line, reason) in fresh.prefix(5) {
                report.skipped.append(tr("\(file.name):\(line + 1): \(reason); the line is skipped"))
            }
            if fresh.count > 5 {
                let more = fresh.count - 5
                report.skipped.append(trn("\(file.name): \(more) more line is skipped (`deskdays sync status` names it)",
                                          "\(file.name): \(more) more lines are skipped (`deskdays sync status` names them)", more))
            }
            report.merged += try store.merge(device: file.id, entries: reading.entries, mergedBytes: Int64(reading.text.complete),
                                             name: file.name)
        }
    }

    /// Each line skipped in the inbox files not forgotten, as
    /// `FILE:LINE: why` (at most `limit` per file), and a sentence for each
    /// file whose last line is not complete yet: `sync status`'s problems.
    func inboxProblems(limit: Int, forgotten: Set<String>) -> [String] {
        var named: [String] = []
        for file in inboxFiles() where !forgotten.contains(file.id) {
            guard case .success(let reading)? = readInbox(file) else { continue }
            for (line, reason) in reading.skipped.prefix(limit) { named.append("\(file.name):\(line + 1): \(reason)") }
            if reading.skipped.count > limit {
                let more = reading.skipped.count - limit
                named.append(trn("\(file.name): \(more) more line is skipped", "\(file.name): \(more) more lines are skipped", more))
            }
            if reading.text.torn {
                named.append(tr("\(file.name) ends in an incomplete line (being written, or torn); it is read once complete"))
            }
        }
        return named
    }
}
