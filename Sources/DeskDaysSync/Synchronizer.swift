import Syscall
import Files
import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Several devices, one record (docs/design.md "Sync"): a folder the user's
/// own file synchroniser (Syncthing, Nextcloud, a USB stick) keeps alike on
/// every device. Each device appends its changes to its own journal file
/// there, `deskdays-<device id>.jsonl` (0600, append-only, fsynced), and
/// merges every other device's file into its database. The SQLite file is
/// never in the folder, and no device writes another's file.
///
/// Merging is idempotent: lines are keyed by (device, seq) in the database,
/// and how many bytes of each file were merged is kept there too, so a
/// pass reads only what was appended. A file that shrank (or was replaced)
/// is read again from its start; bytes after its last newline are a line
/// still being written (or torn) and wait until complete. A file that
/// disappears takes nothing away (`deskdays sync forget` does, on purpose).
public final class Synchronizer: Sendable {
    /// The folder, as configured (`~` expanded).
    public let folder: String
    public let store: AttendanceStore
    /// This device's id (random, kept in the database; a new one when the
    /// database turns out to be a restored backup or a copy) and name.
    public var deviceID: String { identity.withLock { $0 } }
    private let identity: Mutex<String>
    public let deviceName: String
    /// This machine's clock (never the date a command answers for): lines
    /// from the folder more than a day ahead of it are held until it
    /// reaches them (`JournalEntry.heldUntil`).
    public let now: @Sendable () -> ClockTime
    /// How the inbox is read (`SyncInbox.swift`); nil: it is not.
    public let inbox: InboxRules?
    /// The lines skipped and held in each file a merge of this process read
    /// from its start (by path), for `skippedLines` and `heldLines`: a first
    /// merge reads a long journal once.
    private let wholeReadings = Mutex<[String: Reading.Refused]>([:])
    /// What the next merge report says once (`MergeReport.notes`).
    private let notes = Mutex<[String]>([])
    /// What the next merge report says of a clock correction (`correctClock`).
    private let corrected = Mutex<AttendanceStore.ClockCorrection?>(nil)

    /// Makes `store` a syncing device (its history journaled once). The
    /// folder is only touched by `publish` and `merge`, so a folder out of
    /// reach delays the files, never a change.
    public init(store: AttendanceStore, folder: String, deviceName: String, now: @escaping @Sendable () -> ClockTime = ClockTime.now,
                inbox: InboxRules? = nil) throws {
        self.store = store
        self.inbox = inbox
        self.folder = folder
        self.deviceName = deviceName
        self.now = now
        identity = Mutex(try store.enableSync(name: deviceName))
        // Before any change is numbered: a restored backup or a copy goes on as a new device.
        if case .file(let fd) = Self.openFile(ownFile) {
            defer { close(fd) }
            try continueIfCopied(try tail(fd))
        } else {
            try continueIfCopied(nil)
        }
    }

    /// The end of this device's journal file (its last 64 KiB).
    struct Tail {
        var size: Int64 = 0
        /// The bytes up to its last newline.
        var complete: Int64 = 0
        /// The seq of its last line that the database holds alike (it wrote
        /// it, whatever the clock says now); 0 when none.
        var lastSeq: Int64 = 0
        /// Its lines of this device's id: those held alike and those the
        /// door takes (`JournalEntry.problem`).
        var lines: [JournalEntry] = []
        /// Whether one of those is not held alike: a line this database did
        /// not write (`continueIfCopied`). A line the door refuses is
        /// neither: a seq of Int64.max appended there stops nothing.
        var foreign = false
    }

    func tail(_ fd: Int32) throws -> Tail {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return Tail() }
        var end = Tail(size: Int64(info.st_size))
        guard end.size > 0 else { return end }
        let start = max(0, end.size - 65_536)
        let tail = Self.readBytes(fd, from: start, to: end.size)
        guard let lastNewline = tail.lastIndex(of: UInt8(ascii: "\n")) else { return end }
        end.complete = start + Int64(lastNewline) + 1
        // The first line may be cut by the 64 KiB: it is read in full or not at all.
        let id = deviceID
        let entries = Self.lines(tail[..<lastNewline]).dropFirst(start > 0 ? 1 : 0)
            .compactMap { JournalEntry.decode($0) }.filter { $0.device == id }
        guard let low = entries.map(\.seq).min(), let high = entries.map(\.seq).max() else { return end }
        let held = try store.ownLines(in: low...high)
        for entry in entries {
            if let mine = held[entry.seq], entry.isSameLine(as: mine) {
                end.lastSeq = max(end.lastSeq, entry.seq)
                end.lines.append(entry)
            } else if entry.problem(now: now()) == nil {
                end.foreign = true
                end.lines.append(entry)
            }
        }
        return end
    }

    /// Two databases never write the same device's journal (docs/design.md
    /// "Sync", "Identity"): one that finds lines of its id in its own file
    /// that it did not write (a restore from a backup, a copy on another
    /// machine), or a copy `backUp` made, goes on as a new device and keeps
    /// the old one's lines as history; the next merge report says so once.
    func continueIfCopied(_ end: Tail?) throws {
        let retired = try store.identityIsRetired()
        guard end?.foreign == true || retired else { return }
        let (old, new) = try store.continueAsNewDevice(ownFile: end?.lines ?? [])
        identity.withLock { $0 = new }
        let file = Self.fileName(old)
        notes.withLock {
            $0.append(tr("this database is a restored backup or a copy of device \(old)'s (its journal \(file) holds lines it did not write, or will): it goes on as a new device, \(new), and keeps \(old)'s lines as history"))
        }
    }

    /// Stamps again this device's lines written while its clock ran ahead,
    /// once the clock has gone back (`AttendanceStore.correctClock`); the
    /// next merge report says so.
    func correctClock() throws {
        guard let correction = try store.correctClock(now: now()) else { return }
        corrected.withLock { $0 = correction }
        notes.withLock { $0.append(Self.sentence(correction)) }
    }

    /// The correction not yet reported (a merge report takes it too).
    public func takeCorrection() -> AttendanceStore.ClockCorrection? {
        corrected.withLock { corrected in defer { corrected = nil }; return corrected }
    }

    /// What a clock correction did, in one sentence (lower case, no full stop).
    public static func sentence(_ correction: AttendanceStore.ClockCorrection) -> String {
        let hours = max(1, Int((correction.ahead / 3600).rounded()))
        return trn("this device's clock was \(hours) h ahead until it was set right: \(correction.lines) change written on that clock was stamped again with the time it was made, so it rules no later decision on any device; let the clock be set automatically (`timedatectl set-ntp true`)",
                   "this device's clock was \(hours) h ahead until it was set right: \(correction.lines) changes written on that clock were stamped again with the times they were made, so they rule no later decision on any device; let the clock be set automatically (`timedatectl set-ntp true`)",
                   correction.lines)
    }

    /// Whether the file at `path` ends in an incomplete line (being
    /// written, or torn): its last byte alone is read.
    public static func endsInIncompleteLine(_ path: String) -> Bool {
        guard case .file(let fd) = openFile(path) else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return false }
        return readBytes(fd, from: Int64(info.st_size) - 1, to: Int64(info.st_size)) != [UInt8(ascii: "\n")]
    }

    /// Checks that the folder is there; it is never created: a folder
    /// that is missing is one not mounted (a USB stick) or mistyped, and one
    /// made in its place would be written alone.
    func ensureFolder() throws {
        if let problem = Self.folderProblem(folder) { throw SyncFailure(description: problem) }
    }

    /// Why the sync folder `folder` is neither read nor written, or nil (`config check` says it too).
    public static func folderProblem(_ folder: String) -> String? {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            return tr("the sync folder \(folder) does not exist (not mounted?); create it or fix [sync] folder")
        } else if !isFolder.boolValue {
            return tr("the sync folder \(folder) is not a folder; fix [sync] folder")
        }
        // Trusted like ssh trusts a key file: another user who can write
        // there could plant lines taken for your own devices'.
        if let problem = PathCheck.trustProblem(folder) {
            return tr("the sync folder is neither read nor written: \(problem)")
        }
        return nil
    }

    /// Why sync could not do its work, as one sentence.
    public struct SyncFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// This device's journal file.
    public var ownFile: String { folder + "/" + Self.fileName(deviceID) }

    public static func fileName(_ id: String) -> String { "deskdays-\(id).jsonl" }

    // MARK: - Writing this device's journal

    /// Appends to this device's file every journal line of its own the file
    /// lacks (all of them for a new or deleted file), then fsyncs it.
    /// A torn last line of its own (a crash mid-write) is cut off first.
    /// Lines of its id in the file that the database did not write (a
    /// restored backup, a copy) make it go on as a new device first (`continueIfCopied`).
    public func publish() throws {
        try ensureFolder()
        try correctClock()
        let path = ownFile
        let fd: Int32
        switch Self.openFile(path, O_RDWR | O_CREAT | O_APPEND) {
        case .file(let opened): fd = opened
        case .notAFile(let kind):
            throw SyncFailure(description: tr("\(path) is \(kind), not a journal file; remove it, and this device's journal is written again"))
        case .absent:
            throw SyncFailure(description: tr("cannot write \(path) (\(String(cString: strerror(ENOENT)))); check the sync folder's permissions"))
        case .unreadable(let reason):
            throw SyncFailure(description: tr("cannot write \(path) (\(reason)); check the sync folder's permissions"))
        }
        defer { close(fd) }
        // One writer at a time (the agent and a command may both publish).
        _ = Syscall.flock(fd, LOCK_EX)
        let end = try tail(fd)
        if end.foreign {
            // Not its file any more: its lines go to the new device's.
            try continueIfCopied(end)
            return try publish()
        }
        let size = end.complete
        // A torn last line of its own (a crash mid-write) is cut.
        if end.complete < end.size { _ = ftruncate(fd, off_t(end.complete)) }
        let lines = try store.ownLines(after: end.lastSeq)
        guard !lines.isEmpty else { return }
        var bytes = [UInt8]()
        for line in lines {
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        do {
            try Syscall.writeAll(fd, bytes)
        } catch {
            let reason = AtomicFile.reason(error)
            // Never leave half a line behind: the next publish would cut it anyway.
            _ = ftruncate(fd, off_t(size))
            throw SyncFailure(description: tr("cannot append to \(path) (\(reason)); the change is kept in the database and written on the next run"))
        }
        guard fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            throw SyncFailure(description: tr("cannot sync \(path) to disk (\(reason))"))
        }
        if size == 0 { Self.syncFolder(folder) }
    }

    // MARK: - Reading the others

    /// What one look at the folder found.
    public struct Scan: Sendable {
        /// Other devices' journal files: id and path.
        public var journals: [(id: String, path: String)] = []
        /// Synchroniser conflict copies of journal files (`mergeConflictCopy`).
        public var conflictCopies: [String] = []
        /// Other devices' relay files (`SyncRelay.swift`).
        public var relays: [String] = []
    }

    /// Lists the folder: journal files by name, conflict copies of them;
    /// temporary files of synchronisers and anything else are left alone.
    public func scan() throws -> Scan {
        guard let directory = opendir(folder) else {
            let reason = String(cString: strerror(errno))
            throw SyncFailure(description: tr("cannot list the sync folder \(folder) (\(reason)); check [sync] folder"))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        var scan = Scan()
        for name in names.sorted() {
            if let id = Self.journalID(name) {
                if id != deviceID { scan.journals.append((id, folder + "/" + name)) }
            } else if let id = Self.relayID(name) {
                if id != deviceID { scan.relays.append(folder + "/" + name) }
            } else if Self.isConflictCopy(name) {
                scan.conflictCopies.append(name)
            }
        }
        return scan
    }

    /// The device id of a journal file's name; nil for any other name.
    static func journalID(_ name: String) -> String? {
        let prefix = "deskdays-", suffix = ".jsonl"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let id = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard id.count == 32, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return String(id)
    }

    /// Syncthing's `*.sync-conflict-*`, Nextcloud's and Dropbox's
    /// `* (conflicted copy …)`, Resilio's `*.Conflict`, of a journal file:
    /// the lines the original lacks are merged (`mergeConflictCopy`).
    static func isConflictCopy(_ name: String) -> Bool {
        guard name.hasPrefix("deskdays-") else { return false }
        let lower = name.lowercased()
        return lower.contains(".sync-conflict-") || lower.contains("conflicted copy") || lower.contains("conflict")
    }

    /// What a merge pass did.
    public struct MergeReport: Sendable {
        /// New lines merged.
        public var merged = 0
        /// What is said once (this database went on as a new device).
        public var notes: [String] = []
        /// The devices whose lines come from a conflict copy (`mergeConflictCopy`):
        /// their own file may never appear.
        public var branches: Set<String> = []
        /// One sentence per problem met (a newer file, a file that is not a file, a conflict copy…).
        public var warnings: [String] = []
        /// One sentence per file with lines skipped (`skippedLines` names each).
        public var skipped: [String] = []
        /// One sentence per file with lines held (`heldLines` names each).
        public var held: [String] = []
        /// When the first held line becomes acceptable: a merge then applies it.
        public var heldUntil: Date?
        /// This device's clock went back, and its lines written ahead were
        /// stamped again (`correctClock`), since the last report.
        public var corrected: AttendanceStore.ClockCorrection?

        /// Every sentence, for a command's or the agent's warnings.
        public var problems: [String] { notes + warnings + skipped + held }
    }

    /// A command's pass over the folder: this device's journal published,
    /// every other device's merged. The folder out of reach (unmounted,
    /// permissions) delays the files, never an answer: what went wrong is
    /// among the problems returned, and the command answers from its database.
    public func catchUp() -> [String] {
        do {
            try publish()
            return try merge().problems
        } catch {
            return ["\(error)"]
        }
    }

    /// Merges every other device's journal: what was appended since the
    /// last pass, or the whole file when it shrank or was replaced.
    public func merge() throws -> MergeReport {
        var report = MergeReport()
        // A clock set right since the last change is found out by the next merge too.
        if try store.clockWentBack(now: now()) { try publish() }
        let scan = try scan()
        let known = Dictionary(try store.syncDevices().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, path) in scan.journals {
            if known[id]?.forgotten == true { continue }
            let fd: Int32
            switch Self.openFile(path) {
            case .file(let opened): fd = opened
            case .absent: continue
            case .unreadable(let reason):
                report.warnings.append(tr("cannot read \(path) (\(reason)); its device's changes wait until it can be read"))
                continue
            case .notAFile(let kind):
                report.warnings.append(tr("\(path) is \(kind), not a journal file; it is not read (remove it)"))
                continue
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { continue }
            let size = Int64(info.st_size)
            if let problem = Self.sizeProblem(Self.fileName(id), size: size) {
                report.warnings.append(problem)
                continue
            }
            var start = known[id]?.mergedBytes ?? 0
            var fork = Self.fork(of: known[id])
            let replaced = try store.replacedSeqs(of: id)
            // Shrunk, or replaced (the line before where we stopped is no
            // longer the line merged): read it again from the start.
            if start > 0, try size < start || lineBeforeChanged(fd, before: start, device: id, fork: fork) {
                start = 0
            }
            if size == start { continue }
            // A batch at a time (`eachLines`): each batch merged before the next is read.
            var refused = Reading.Refused(), newer = false, heldAt: Int64?, seqs = Set<Int64>(), mergedTo = start
            let complete = try Self.eachLines(fd, from: start, to: size) { lines in
                let reading = Self.read(lines, device: id, now: now(), replaced: replaced)
                if reading.newer { newer = true; return false }
                refused.add(reading.refused)
                // A held line is read again at every merge until its time comes:
                // the file counts as merged up to it (lines after it are merged
                // now, and again idempotently, by seq).
                if heldAt == nil { heldAt = reading.heldAt }
                mergedTo = heldAt ?? lines.last!.end
                var entries = reading.entries
                // Its journal went back and went on (a restore): the lines
                // from the first one held here with other content are its
                // continuation's, merged as a device of their own.
                if fork == nil, let first = try store.firstOtherLine(of: id, in: entries) {
                    let found = Fork(seq: entries[first].seq, branch: JournalEntry.branchID(of: id, from: entries[first]))
                    try store.setReadState(of: id, "fork \(found.seq) \(found.branch)")
                    let name = known[id]?.name ?? entries[first].name
                    report.notes.append(tr("\(name)'s journal went back (restored from a backup) and went on with other lines from its line \(found.seq); they are merged as its continuation, device \(found.branch), and every line is kept"))
                    fork = found
                }
                if let fork {
                    let continued = entries.filter { $0.seq >= fork.seq }.map { line in
                        var line = line
                        line.device = fork.branch
                        return line
                    }
                    entries.removeAll { $0.seq >= fork.seq }
                    report.branches.insert(fork.branch)
                    if !continued.isEmpty, fork.branch != deviceID {
                        report.merged += try store.merge(device: fork.branch, entries: continued, mergedBytes: nil)
                    }
                }
                if start == 0 { seqs.formUnion(entries.lazy.map(\.seq)) }
                report.merged += try store.merge(device: id, entries: entries, mergedBytes: mergedTo)
                return true
            }
            // Read whole: `skippedLines` need not read it again (read in
            // part: what was kept of it may be out of date).
            wholeReadings.withLock { $0[path] = start > 0 ? nil : newer ? Reading.Refused() : refused }
            if newer {
                report.warnings.append(tr("\(path) was written by a newer DeskDays; it is skipped until this one is updated"))
                continue
            }
            // Blank lines at its end.
            if heldAt == nil, complete > mergedTo { try store.merge(device: id, entries: [], mergedBytes: complete) }
            let bad = refused.skippedCount
            if bad > 0 {
                report.skipped.append(trn("\(path) has \(bad) line that is not a DeskDays journal line of its device or is refused; it is skipped (`deskdays sync status` names it)",
                                          "\(path) has \(bad) lines that are not DeskDays journal lines of its device or are refused; they are skipped (`deskdays sync status` names them)", bad))
            }
            if let until = refused.earliest {
                let count = refused.heldCount
                report.heldUntil = min(report.heldUntil ?? until, until)
                report.held.append(trn("\(path) has \(count) line whose clock is more than a day ahead of this device's; it is held and applied once this clock reaches it (`deskdays sync status` names it)",
                                       "\(path) has \(count) lines whose clock is more than a day ahead of this device's; they are held and applied once this clock reaches them (`deskdays sync status` names them)", count))
            }
            // Read whole: a line held here that the file lost (its device
            // restored from a backup) goes back through the relay.
            if start == 0, let device = known[id], device.lines > 0,
               let note = try relayMissing(device: id, name: device.name, fileHas: seqs) {
                report.notes.append(note)
            }
        }
        try mergeRelays(scan.relays, report: &report)
        for name in scan.conflictCopies {
            report.warnings.append(try mergeConflictCopy(name, report: &report))
        }
        try mergeInbox(&report)
        // Said once, with what this merge found (a restore) among them.
        report.notes = notes.withLock { notes in defer { notes = [] }; return notes } + report.notes
        report.corrected = takeCorrection()
        return report
    }

    /// Where a device's journal went back (a restore) and went on with
    /// other lines: from `seq` on, its file's lines are those of `branch`,
    /// its continuation (`JournalEntry.branchID`: the id the restored
    /// device itself goes on as, `continueAsNewDevice`).
    public struct Fork: Sendable {
        public var seq: Int64
        public var branch: String
    }

    /// The fork kept for `device` (its `readState`), if any.
    public static func fork(of device: SyncDevice?) -> Fork? {
        guard let parts = device?.readState?.split(separator: " "), parts.count == 3, parts[0] == "fork",
              let seq = Int64(parts[1]), journalID(fileName(String(parts[2]))) != nil else { return nil }
        return Fork(seq: seq, branch: String(parts[2]))
    }

    /// Whether the line of `fd` that ends at `start` (where the last merge
    /// stopped) is no longer the line merged: the file was replaced (by an
    /// older copy that went on, a restore), and is read again from its start.
    func lineBeforeChanged(_ fd: Int32, before start: Int64, device id: String, fork: Fork?) throws -> Bool {
        var bytes = Self.readBytes(fd, from: max(0, start - 4_096), to: start)
        if start > 4_096, bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")) == nil {
            bytes = Self.readBytes(fd, from: max(0, start - Int64(Self.maximumLineBytes) - 1), to: start)
        }
        guard bytes.last == UInt8(ascii: "\n") else { return true }
        let body = bytes.dropLast()
        let lineStart = body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        guard var line = JournalEntry.decode(body[lineStart...]), line.device == id else { return false }
        if let fork, line.seq >= fork.seq { line.device = fork.branch }
        // A line the door takes is held alike (one it refuses was never kept).
        guard line.problem(now: now()) == nil else { return false }
        return try store.lines(of: line.device, in: line.seq...line.seq)[line.seq].map { !$0.isSameLine(as: line) } ?? true
    }

    /// A conflict copy of device `id`'s journal (two databases wrote it:
    /// a copied database, until one of them found out): its lines from the
    /// first one that the original does not hold alike are the other
    /// writer's, a branch of that journal merged as a device of its own
    /// (`JournalEntry.branchID`, the id the writer itself goes on as), so no
    /// line is lost whichever file the synchroniser kept. Returns what
    /// `sync status` says of it: delete it only when the original and the
    /// branch's own file hold every line of it (compared by content).
    private func mergeConflictCopy(_ name: String, report: inout MergeReport) throws -> String {
        guard let id = Self.conflictCopyID(name), let copy = Self.readWhole(folder + "/" + name, device: id, now: now()) else {
            return tr("\(name) in the sync folder looks like a conflict copy made by the synchroniser but is not one of a journal DeskDays can read; it is left alone")
        }
        let original = Self.bySeq(Self.readWhole(folder + "/" + Self.fileName(id), device: id, now: now()) ?? [])
        guard let start = copy.firstIndex(where: { line in original[line.seq].map { !line.isSameLine(as: $0) } ?? true }) else {
            return tr("\(name) in the sync folder is a conflict copy made by the synchroniser; \(Self.fileName(id)) holds every line of it: delete it")
        }
        let branch = JournalEntry.branchID(of: id, from: copy[start])
        let lines = copy[start...].map { line in
            var line = line
            line.device = branch
            return line
        }
        report.branches.insert(branch)
        if branch != deviceID {
            let merged = try store.syncDevices().first { $0.id == branch }?.mergedBytes ?? 0
            report.merged += try store.merge(device: branch, entries: lines, mergedBytes: merged)
        }
        let file = Self.fileName(branch)
        let own = Self.bySeq(Self.readWhole(folder + "/" + file, device: branch, now: now()) ?? [])
        let lacking = lines.filter { line in !(own[line.seq].map(line.isSameLine) ?? false) }.count
        guard lacking > 0 else {
            return tr("\(name) in the sync folder is a conflict copy made by the synchroniser; \(Self.fileName(id)) and \(file) hold every line of it: delete it")
        }
        return trn("\(name) in the sync folder is a conflict copy made by the synchroniser holding \(lacking) line that no journal file holds; it is merged (as device \(branch.prefix(8))): keep the copy",
                   "\(name) in the sync folder is a conflict copy made by the synchroniser holding \(lacking) lines that no journal file holds; they are merged (as device \(branch.prefix(8))): keep the copy", lacking)
    }

    /// The device id in a conflict copy's name (`deskdays-<id>…`).
    static func conflictCopyID(_ name: String) -> String? {
        let id = name.dropFirst("deskdays-".count).prefix(32)
        guard id.count == 32, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return String(id)
    }

    /// The lines of device `id` that the door takes in the file at `path`,
    /// read from its start (a batch at a time); nil when it cannot be read,
    /// is too large or is of a newer format.
    static func readWhole(_ path: String, device id: String, now: ClockTime) -> [JournalEntry]? {
        var entries: [JournalEntry] = [], newer = false
        let read = eachReading(path, device: id, now: now) { reading in
            newer = newer || reading.newer
            entries += reading.entries
            return !newer
        }
        guard case .some(nil) = read, !newer else { return nil }
        return entries
    }

    static func bySeq(_ entries: [JournalEntry]) -> [Int64: JournalEntry] {
        Dictionary(entries.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each line skipped in the journal files of the folder (this
    /// device's and every other not forgotten), as `FILE:LINE: why`, at
    /// most `limit` per file: every file is read from its start, so that a
    /// line skipped by an earlier merge is named too; then the inbox's
    /// (`inboxProblems`).
    public func skippedLines(limit: Int = 20) throws -> [String] {
        let forgotten = Set(try store.syncDevices().filter(\.forgotten).map(\.id))
        let named = try refusedLines(forgotten: forgotten).flatMap { file, refused in
            Self.named(file, refused.skipped.map { ($0.line, $0.reason) }, count: refused.skippedCount, limit: limit, more: { more in
                trn("\(file): \(more) more line is skipped", "\(file): \(more) more lines are skipped", more)
            })
        }
        return named + inboxProblems(limit: limit, forgotten: forgotten)
    }

    /// Each line held in the journal files of the folder (refused until
    /// this device's clock reaches its time: `JournalEntry.heldUntil`), as
    /// `FILE:LINE: until TIME: why`, at most `limit` per file.
    public func heldLines(limit: Int = 20) throws -> [String] {
        let forgotten = Set(try store.syncDevices().filter(\.forgotten).map(\.id))
        return try inboxHeld(limit: limit, forgotten: forgotten) + refusedLines(forgotten: forgotten).flatMap { file, refused in
            Self.named(file, refused.held.map { ($0.line, tr("applied from \($0.until.formatted(.iso8601)): \($0.reason)")) },
                       count: refused.heldCount, limit: limit, more: { more in
                trn("\(file): \(more) more line is held", "\(file): \(more) more lines are held", more)
            })
        }
    }

    /// `FILE:LINE: why` of each line, at most `limit`, then how many more.
    private static func named(_ file: String, _ lines: [(Int, String)], count: Int, limit: Int, more: (Int) -> String) -> [String] {
        let shown = min(limit, lines.count)
        return lines.prefix(shown).map { "\(file):\($0.0 + 1): \($0.1)" } + (count > shown ? [more(count - shown)] : [])
    }

    /// The lines refused in each journal file (this device's and every
    /// other not forgotten), by file name, each read from its start.
    private func refusedLines(forgotten: Set<String>) throws -> [(file: String, refused: Reading.Refused)] {
        let files = [(deviceID, ownFile)] + (try scan().journals.filter { !forgotten.contains($0.id) })
        return files.compactMap { id, path in
            let file = (path as NSString).lastPathComponent
            if let whole = wholeReadings.withLock({ $0[path] }) { return (file, whole) }
            var refused = Reading.Refused(), newer = false
            let replaced = (try? store.replacedSeqs(of: id)) ?? []
            let read = Self.eachReading(path, device: id, now: now(), replaced: replaced) { reading in
                newer = newer || reading.newer
                refused.add(reading.refused)
                return !newer
            }
            // A file too large is named by the merge's warnings.
            guard case .some(nil) = read, !newer else { return nil }
            return (file, refused)
        }
    }

    /// A batch of a journal file's complete lines, decoded and checked (`read`).
    struct Reading {
        /// The lines to merge, in file order.
        var entries: [JournalEntry] = []
        /// The lines not merged.
        var refused = Refused()
        /// The seq of every line of the file's device, merged or not.
        var seqs: Set<Int64> = []
        /// A line of a newer format: the whole file waits for a newer DeskDays.
        var newer = false
        /// Where the first held line starts in the file.
        var heldAt: Int64?

        /// The first lines refused by number (`namedLines`), and how many there are.
        struct Refused: Sendable {
            /// Each line skipped for good (its number less one) and why.
            var skipped: [(line: Int, reason: String)] = []
            var skippedCount = 0
            /// Each line held (`JournalEntry.heldUntil`), from when, and why.
            var held: [(line: Int, until: Date, reason: String)] = []
            var heldCount = 0
            /// When the first held line becomes acceptable.
            var earliest: Date?

            /// Those of `later`, a batch read after these, added.
            mutating func add(_ later: Refused) {
                skipped += later.skipped.prefix(namedLines - skipped.count)
                held += later.held.prefix(namedLines - held.count)
                skippedCount += later.skippedCount
                heldCount += later.heldCount
                if let until = later.earliest { earliest = min(earliest ?? until, until) }
            }
        }
    }

    /// The refused lines of a file kept by number (the rest are counted).
    static let namedLines = 100

    /// Decodes a batch of device `id`'s journal file and checks each line
    /// (`JournalEntry.problem`, as of `now`): a line that is not a journal
    /// line, one too long, one of another device, and one refused are
    /// skipped, with why; one that this clock will accept later
    /// (`JournalEntry.heldUntil`) is held.
    static func read(_ lines: [FileLine], device id: String, now: ClockTime, replaced: Set<Int64> = []) -> Reading {
        let (entries, failed, refused) = decode(lines, device: id, now: now)
        var reading = Reading()
        // A line another stands for (its device's clock ran ahead: `correctClock`)
        // is kept without effect, whatever its time: it is not held.
        var replaced = replaced
        for entry in entries where entry.device == id { if let seq = entry.replaces { replaced.insert(seq) } }
        var skipped = Set(failed)
        for index in failed {
            if lines[index].tooLong {
                reading.refused.skipped.append((lines[index].index, tr("it is longer than \(maximumLineBytes) bytes")))
                continue
            }
            if (version(of: lines[index].bytes) ?? 0) > JournalEntry.version { reading.newer = true }
            reading.refused.skipped.append((lines[index].index, tr("it is not a DeskDays journal line")))
        }
        for (index, reason) in refused {
            if entries[index].v > JournalEntry.version { reading.newer = true }
            skipped.insert(index)
            if entries[index].device == id, replaced.contains(entries[index].seq), entries[index].heldUntil(now: now) != nil {
                skipped.remove(index)
            } else if entries[index].device == id, let until = entries[index].heldUntil(now: now) {
                reading.refused.held.append((lines[index].index, until, reason))
                reading.refused.earliest = min(reading.refused.earliest ?? until, until)
                reading.heldAt = min(reading.heldAt ?? lines[index].offset, lines[index].offset)
            } else {
                reading.refused.skipped.append((lines[index].index, reason))
            }
        }
        reading.seqs = Set(entries.lazy.filter { $0.device == id }.map(\.seq))
        reading.refused.skippedCount = reading.refused.skipped.count
        reading.refused.heldCount = reading.refused.held.count
        reading.refused.skipped = Array(reading.refused.skipped.sorted { $0.line < $1.line }.prefix(namedLines))
        reading.refused.held = Array(reading.refused.held.sorted { $0.line < $1.line }.prefix(namedLines))
        reading.entries = skipped.isEmpty ? entries : entries.indices.filter { !skipped.contains($0) }.map { entries[$0] }
        return reading
    }

    /// Each line decoded and checked, a long file's in parts on every
    /// core: the indexes of those that are not journal lines (in order;
    /// their slots hold a line of no device), and of those refused (of
    /// another device, of a newer format, or `JournalEntry.problem` as of
    /// `now`) with why. Its lines share the id's storage: the merge compares them.
    static func decode(_ lines: [FileLine], device id: String, now: ClockTime)
        -> (entries: [JournalEntry], failed: [Int], refused: [(Int, String)]) {
        let parts = lines.count < 4_096 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
        let size = (lines.count + parts - 1) / parts
        var failed = [[Int]](repeating: [], count: parts)
        var refused = [[(Int, String)]](repeating: [], count: parts)
        // Each entry is made in its place: a copy would retain every field.
        let entries = [JournalEntry](unsafeUninitializedCapacity: lines.count) { buffer, initialized in
            failed.withUnsafeMutableBufferPointer { failedBuffer in
                refused.withUnsafeMutableBufferPointer { refusedBuffer in
                    // Each part writes its own indexes and its own lists only.
                    nonisolated(unsafe) let entries = buffer, failed = failedBuffer, refused = refusedBuffer
                    DispatchQueue.concurrentPerform(iterations: parts) { part in
                        for index in part * size..<min(lines.count, (part + 1) * size) {
                            if let entry = JournalEntry.decode(lines[index].bytes, device: id) {
                                (entries.baseAddress! + index).initialize(to: entry)
                                let reason = entry.v > JournalEntry.version ? tr("it was written by a newer DeskDays")
                                    : entry.device != id ? tr("it is a line of another device than its file's")
                                    : entry.problem(now: now)
                                if let reason { refused[part].append((index, reason)) }
                            } else {
                                (entries.baseAddress! + index).initialize(to: JournalEntry(v: 0, device: "", name: "", seq: 0, hlc: 0,
                                                                                           n: 0, op: "", date: ""))
                                failed[part].append(index)
                            }
                        }
                    }
                }
            }
            initialized = lines.count
        }
        return (entries, failed.flatMap { $0 }, refused.flatMap { $0 })
    }

    /// The `v` of a line that does not decode as this build's (a newer
    /// format may have fields this one does not know the shape of).
    static func version(of line: ArraySlice<UInt8>) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
        return object["v"] as? Int
    }

    // MARK: - Files

    /// The complete lines of `bytes` (without their newlines), sharing its
    /// storage; empty ones too, so that the index of a line of a file read
    /// from its start is its line number less one.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        // memchr, not a loop by hand nor the generic `split`.
        var lines: [ArraySlice<UInt8>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let end = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
                    .map { $0.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base) } ?? buffer.count
                lines.append(bytes[(bytes.startIndex + start)..<(bytes.startIndex + end)])
                start = end + 1
            }
        }
        return lines
    }

    /// A file of the folder, opened (`open`'s flags and 0600), or why not.
    enum Opened {
        case file(Int32)
        case absent
        case unreadable(String)
        /// Not a regular file: what it is ("a FIFO", "a folder"…).
        case notAFile(String)
    }

    /// Opens a file of the folder without ever blocking, and only a regular
    /// file: anyone who can write to the folder can put a FIFO there under
    /// a journal's name, whose `open` and reads would wait for a writer
    /// forever (and a device or a socket is no journal either).
    static func openFile(_ path: String, _ flags: Int32 = O_RDONLY) -> Opened {
        let fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return .absent
            case ELOOP: return .notAFile(tr("a symbolic link"))
            case EISDIR: return .notAFile(tr("a folder"))
            case let error: return .unreadable(String(cString: strerror(error)))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .unreadable(reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(fd)
        case S_IFIFO: close(fd); return .notAFile(tr("a FIFO"))
        case S_IFDIR: close(fd); return .notAFile(tr("a folder"))
        case S_IFSOCK: close(fd); return .notAFile(tr("a socket"))
        default: close(fd); return .notAFile(tr("a device"))
        }
    }

    static func readBytes(_ fd: Int32, from start: Int64, to end: Int64) -> [UInt8] {
        guard end > start else { return [] }
        // Not zeroed first: pread fills it, and only what it filled is kept
        // (fewer when the file shrank meanwhile).
        return [UInt8](unsafeUninitializedCapacity: Int(end - start)) { buffer, initialized in
            var done = 0
            while done < buffer.count {
                let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[done...])
                guard case .success(let count) = Syscall.read(fd, at: Int64(start) + Int64(done), into: rest), count > 0 else { break }
                done += count
            }
            initialized = done
        }
    }

    /// Makes a new file's name durable.
    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
