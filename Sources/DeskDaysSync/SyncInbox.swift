import Files
import Localization
import DeskDaysConfig
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

        /// How a device with `configuration` reads it: its policy's dates and its rule-name check.
        public init(_ configuration: Configuration) {
            self.init(policy: configuration.policy, ruleProblem: { configuration.ruleNameProblem($0) })
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
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard let file = String(validating: bytes, as: UTF8.self) else {
                // Named, never read: a path of it is no text to keep.
                let shown = bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
                files.append(InboxFile(name: "inbox/" + shown, path: "", id: ""))
                continue
            }
            guard Self.isInboxName(file) else { continue }
            let name = "inbox/" + file
            files.append(InboxFile(name: name, path: inboxFolder + "/" + file, id: Self.inboxID(name)))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Whether a file of the inbox folder is an inbox file: `*.txt`, not
    /// hidden, and not a synchroniser's or an editor's temporary or partial
    /// file (`phone.tmp.txt`, `phone.txt.part`, `~phone.txt`), which would
    /// become a device of its own for good.
    static func isInboxName(_ file: String) -> Bool {
        guard file.hasSuffix(".txt"), !file.hasPrefix("."), !file.hasPrefix("~") else { return false }
        let words = file.lowercased().dropLast(4).split(separator: ".").dropFirst()
        return !words.contains { ["tmp", "temp", "part", "partial", "swp", "download", "crdownload"].contains($0) }
    }

    /// What a read of an inbox file found.
    struct InboxReading {
        /// Its check-ins as journal lines of its device, in file order.
        var entries: [JournalEntry] = []
        /// The first lines skipped (their numbers) and why, and how many there were.
        var skipped: [(line: Int, reason: String)] = []
        var skippedCount = 0
        /// The lines held (`JournalEntry.heldUntil`: a time ahead of this
        /// clock): their numbers, from when, why, and the line; `merge`
        /// relays them, and takes them from the relay once due.
        var held: [(line: Int, until: Date, reason: String, entry: JournalEntry)] = []
        /// Where the read stopped: the file's place and what to save beside it.
        var splitter = InboxLine.Splitter()
        var hash = SHA256()
        /// Bytes after `maximumInboxBytes` were not read.
        var truncated = false
        /// What `merge` saves beside the file's place: the splitter's state
        /// and the digest of the bytes before it.
        var readState: String { splitter.state + " " + hash.hex() }
    }

    /// The most of an inbox file read: a phone writes about 40 KB a year.
    static let maximumInboxBytes: Int64 = 16 * 1_048_576
    /// The skipped lines a read keeps by name (the rest are counted).
    static let namedSkips = 100

    /// Reads the inbox file `file` from where the last read of it stopped
    /// (`device`'s place and read state), when what it read then is still
    /// there byte for byte (a file rewritten in place, even to the same
    /// size, is read again from its start); a warning instead when it is
    /// not a regular file or cannot be read; nil when it went away or has
    /// nothing new. A chunk at a time: memory stays bounded.
    func readInbox(_ file: InboxFile, after device: SyncDevice? = nil) -> Result<InboxReading, SyncFailure>? {
        guard !file.path.isEmpty else {
            return .failure(SyncFailure(description: tr("\(file.name) in the sync folder has a name that is not UTF-8 text; it is not read (rename it)")))
        }
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
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int64(info.st_size)
        let end = min(size, Self.maximumInboxBytes)
        var reading = InboxReading()
        reading.truncated = size > end
        // Goes on from the last place when the bytes before it are unchanged.
        if let device, device.mergedBytes > 0, device.mergedBytes <= end, let saved = device.readState,
           let space = saved.lastIndex(of: " "),
           let splitter = InboxLine.Splitter(state: String(saved[..<space]), complete: Int(device.mergedBytes)) {
            var hash = SHA256()
            Self.eachChunk(fd, from: 0, to: device.mergedBytes) { hash.update($0) }
            if hash.hex() == saved[saved.index(after: space)...] {
                if device.mergedBytes == end { return nil }
                reading.splitter = splitter
                reading.hash = hash
            }
        }
        let from = Int64(reading.splitter.offset)
        Self.eachChunk(fd, from: from, to: end) { chunk in
            reading.splitter.feed(chunk) { line in
                guard let ordinal = line.ordinal else { return }
                let result: Result<JournalEntry, SyncFailure>?
                if let text = line.text {
                    result = entry(text, ordinal: ordinal, of: file)
                } else {
                    result = .failure(SyncFailure(description: tr("it is longer than \(InboxLine.maximumBytes) bytes, or not text")))
                }
                switch result {
                case .none: break
                case .some(.success(let entry)):
                    if let until = entry.heldUntil(now: now()) {
                        reading.held.append((line.number, until, entry.problem(now: now()) ?? "", entry))
                    } else {
                        reading.entries.append(entry)
                    }
                case .some(.failure(let problem)):
                    if reading.skipped.count < Self.namedSkips { reading.skipped.append((line.number, problem.description)) }
                    reading.skippedCount += 1
                }
            }
        }
        if end == size { reading.splitter.finish { _ in } }
        Self.eachChunk(fd, from: from, to: Int64(reading.splitter.complete)) { reading.hash.update($0) }
        return .success(reading)
    }

    /// Calls `body` with the bytes of `fd` from `start` to `end`, 64 KiB at a time.
    static func eachChunk(_ fd: Int32, from start: Int64, to end: Int64, _ body: (UnsafeRawBufferPointer) -> Void) {
        var at = start
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate() }
        while at < end {
            let read = pread(fd, buffer.baseAddress, min(buffer.count, Int(end - at)), off_t(at))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return }
            body(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            at += Int64(read)
        }
    }

    /// The line of `file` that is its `ordinal`th not blank, as a journal
    /// line of the file's device, or why it is skipped; nil for a comment.
    func entry(_ text: String, ordinal: Int, of file: InboxFile) -> Result<JournalEntry, SyncFailure>? {
        guard let inbox else { return nil }
        let line: InboxLine
        switch InboxLine.parse(text) {
        case .nothing: return nil
        case .bad(let reason): return .failure(SyncFailure(description: reason))
        case .checkIn(let parsed): line = parsed
        }
        // The range first: the calendar then sees only years DeskDays keeps.
        // A time ahead of this clock is held, not skipped (`readInbox`).
        let future = ClockTime(reading: .distantFuture)
        if let problem = Validation.timeProblem(line.time, now: future) {
            return .failure(SyncFailure(description: tr("its time: \(problem)")))
        }
        let date = inbox.localDate(line.time)
        guard date.isSupported else { return .failure(SyncFailure(description: tr("its date \(date) is \(LocalDate.unsupportedPhrase)"))) }
        if let problem = inbox.ruleProblem(line.rule) { return .failure(SyncFailure(description: tr("its rule: \(problem)"))) }
        // Its ordinal and its content: the same line read again is the
        // same line; one rewritten in place (a file replaced) is another.
        guard ordinal < 1 << 20 else {
            return .failure(SyncFailure(description: tr("an inbox file is read up to its line \((1 << 20) - 1) that is not blank")))
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        let hash = Int64(JournalEntry.fnv128(words).prefix(5), radix: 16) ?? 0
        let sign = LatestSign(date: date, source: .external, at: line.time, kind: line.kind)
        let entry = JournalEntry(device: file.id, name: file.name, seq: Int64(ordinal) << 20 | hash,
                                 time: HLC(wall: HLC.milliseconds(line.time), counter: 0), clock: nil,
                                 change: .sign(sign, rule: line.rule))
        // The journal's own door, for what the checks above did not see.
        if let problem = entry.problem(now: future) { return .failure(SyncFailure(description: problem)) }
        return .success(entry)
    }

    /// Applies every inbox file's new lines (`merge`'s last step), read
    /// from where the last read stopped; lines held already change nothing.
    /// Lines skipped since then are named in `report.skipped` (once: a
    /// command's stderr, the agent's log).
    func mergeInbox(_ report: inout MergeReport) throws {
        // An inbox another user can write is no phone of yours: not read.
        if inbox != nil, FileManager.default.fileExists(atPath: inboxFolder), let problem = PathCheck.trustProblem(inboxFolder) {
            report.warnings.append(tr("the inbox is not read: \(problem)"))
            return
        }
        let known = Dictionary(try store.syncDevices().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var publishing: [String] = [], batches: [AttendanceStore.MergeBatch] = []
        for file in inboxFiles() {
            let device = known[file.id]
            if device?.forgotten == true { continue }
            let reading: InboxReading
            switch readInbox(file, after: device) {
            case .none: continue
            case .some(.failure(let failure)): report.warnings.append(failure.description); continue
            case .some(.success(let read)): reading = read
            }
            for (line, reason) in reading.skipped.prefix(5) {
                report.skipped.append(tr("\(file.name):\(line): \(reason); the line is skipped"))
            }
            if reading.skippedCount > 5 {
                let more = reading.skippedCount - 5
                report.skipped.append(trn("\(file.name): \(more) more line is skipped (`deskdays sync status` names it)",
                                          "\(file.name): \(more) more lines are skipped (`deskdays sync status` names them)", more))
            }
            // Held lines: relayed like accepted ones (each device's door
            // takes them from the relay files once its clock reaches them).
            if let until = reading.held.map(\.until).min() {
                let count = reading.held.count
                report.heldUntil = min(report.heldUntil ?? until, until)
                report.held.append(trn("\(file.name) has \(count) line whose clock is more than a day ahead of this device's; it is held and applied once this clock reaches it (`deskdays sync status` names it)",
                                       "\(file.name) has \(count) lines whose clock is more than a day ahead of this device's; they are held and applied once this clock reaches them (`deskdays sync status` names them)", count))
            }
            // The inbox is a journal's source: lines new here are published
            // in this device's relay file, so that every device holds them
            // whatever the phone later does with its file.
            var fresh = reading.entries
            if let low = fresh.map(\.seq).min(), let high = fresh.map(\.seq).max() {
                let held = try store.lines(of: file.id, in: low...high)
                fresh.removeAll { held[$0.seq] != nil }
            }
            batches.append(AttendanceStore.MergeBatch(device: file.id, entries: reading.entries,
                                                      mergedBytes: Int64(reading.splitter.complete),
                                                      readState: reading.readState, name: file.name))
            publishing += (fresh + reading.held.map(\.entry)).map { $0.encoded() }
        }
        report.merged += try store.merge(batches)
        do {
            if !publishing.isEmpty { try append(publishing, to: relayFile) }
        } catch let failure as SyncFailure {
            report.warnings.append(failure.description)
        }
    }

    /// Each inbox line held (a time ahead of this device's clock), as
    /// `FILE:LINE: until TIME: why`, at most `limit` per file.
    func inboxHeld(limit: Int, forgotten: Set<String>) -> [String] {
        inboxFiles().filter { !forgotten.contains($0.id) }.flatMap { file -> [String] in
            guard case .success(let reading)? = readInbox(file) else { return [] }
            return reading.held.prefix(limit).map { "\(file.name):\($0.line): " + tr("applied from \($0.until.formatted(.iso8601)): \($0.reason)") }
        }
    }

    /// Each line skipped in the inbox files not forgotten, as
    /// `FILE:LINE: why` (at most `limit` per file), and a sentence for each
    /// file whose last line is not complete yet or that is too large:
    /// `sync status`'s problems.
    func inboxProblems(limit: Int, forgotten: Set<String>) -> [String] {
        var named: [String] = []
        for file in inboxFiles() where !forgotten.contains(file.id) {
            guard case .success(let reading)? = readInbox(file) else { continue }
            for (line, reason) in reading.skipped.prefix(limit) { named.append("\(file.name):\(line): \(reason)") }
            if reading.skippedCount > limit {
                let more = reading.skippedCount - limit
                named.append(trn("\(file.name): \(more) more line is skipped", "\(file.name): \(more) more lines are skipped", more))
            }
            if reading.truncated {
                named.append(tr("\(file.name) is larger than \(Self.maximumInboxBytes / 1_048_576) MB: what follows its first \(Self.maximumInboxBytes / 1_048_576) MB is not read (start a new file)"))
            } else if reading.splitter.torn {
                named.append(tr("\(file.name) ends in an incomplete line (being written, or torn); it is read once complete"))
            }
        }
        return named
    }
}
