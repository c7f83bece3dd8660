import Syscall
import Files
import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Restores converge (docs/design.md "Sync", "Identity"): a device whose
/// database and journal were restored from a backup goes on as a new
/// device, and its journal file no longer holds the lines it wrote after
/// the backup, though the other devices merged them. Each device that
/// holds such a line relays it: it appends the line, as its writer wrote
/// it, to its own relay file, `deskdays-relay-<its id>.jsonl` (0600,
/// append-only), once. Every device merges the other devices' relay files
/// as lines of their writers, through the same door as journal lines and
/// keyed the same way (device, seq), so a line relayed twice is held once.
extension Synchronizer {
    /// This device's relay file.
    public var relayFile: String { folder + "/" + Self.relayFileName(deviceID) }

    static func relayFileName(_ id: String) -> String { "deskdays-relay-\(id).jsonl" }

    /// The device id of a relay file's name; nil for any other name.
    static func relayID(_ name: String) -> String? {
        let prefix = "deskdays-relay-", suffix = ".jsonl"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let id = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard id.count == 32, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return String(id)
    }

    /// After device `id`'s journal file was read from its start: the lines
    /// of `id` held here that the file does not have (`seqs`: those it has)
    /// are relayed, each once. Returns what the merge report says of it.
    func relayMissing(device id: String, name: String, fileHas seqs: Set<Int64>) throws -> String? {
        let missing = try store.lines(of: id).filter { !seqs.contains($0.seq) }
        guard !missing.isEmpty else { return nil }
        let relayed = Set(Self.relayedLines(relayFile).filter { $0.device == id }.map(\.seq))
        let lines = missing.filter { !relayed.contains($0.seq) }
        guard !lines.isEmpty else { return nil }
        try append(lines.map { $0.encoded() }, to: relayFile)
        let count = lines.count
        return trn("\(name)'s journal no longer holds \(count) line this device has (restored from a backup, or replaced); it is relayed so that every device keeps it",
                   "\(name)'s journal no longer holds \(count) lines this device has (restored from a backup, or replaced); they are relayed so that every device keeps them", count)
    }

    /// Merges every other device's relay file: each line that the door
    /// takes (`JournalEntry.problem`) as a line of the device that wrote
    /// it; this device's own lines and forgotten devices' are not taken.
    func mergeRelays(_ paths: [String], report: inout MergeReport) throws {
        // Its own too: inbox lines it held for its clock (`mergeInbox`).
        let all = (paths + [relayFile]).flatMap { Self.relayedLines($0) }.filter { Self.journalID(Self.fileName($0.device)) != nil }
        // A line held (a time ahead of this clock) is taken at a merge once due.
        if let until = all.compactMap({ $0.heldUntil(now: now()) }).min() { report.heldUntil = min(report.heldUntil ?? until, until) }
        let relayed = all.filter { $0.problem(now: now()) == nil }
        // Lines of this device's id that it does not hold alike: its
        // database went back with its journal (a restore) while another
        // device kept what it wrote after: it goes on as a new device.
        let mine = relayed.filter { $0.device == deviceID }
        if let low = mine.map(\.seq).min(), let high = mine.map(\.seq).max() {
            let held = try store.ownLines(in: low...high)
            let lost = mine.filter { line in !(held[line.seq].map(line.isSameLine) ?? false) }.sorted { $0.seq < $1.seq }
            if !lost.isEmpty { try continueIfCopied(Tail(lines: lost, foreign: true)) }
        }
        // Only lines not held yet: a relay file is read whole at every merge.
        let others = relayed.filter { $0.device != deviceID }
        let held = try store.heldSeqs(of: Set(others.map(\.device)))
        var byDevice: [String: [JournalEntry]] = [:]
        for entry in others where held[entry.device]?.contains(entry.seq) != true {
            byDevice[entry.device, default: []].append(entry)
        }
        // One transaction for all (an inbox of many files relays many devices' lines).
        report.merged += try store.merge(byDevice.sorted { $0.key < $1.key }.map { device, entries in
            AttendanceStore.MergeBatch(device: device, entries: entries, mergedBytes: nil, readState: nil, name: nil)
        })
    }

    /// The journal lines of a relay file, read a batch at a time (none
    /// when it cannot be read or is too large).
    static func relayedLines(_ path: String) -> [JournalEntry] {
        guard case .file(let fd) = openFile(path) else { return [] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, sizeProblem(path, size: Int64(info.st_size)) == nil else { return [] }
        var entries: [JournalEntry] = []
        eachLines(fd, from: 0, to: Int64(info.st_size)) { lines in
            entries += lines.compactMap { JournalEntry.decode($0.bytes) }.filter { $0.v <= JournalEntry.version }
            return true
        }
        return entries
    }

    /// Appends `lines` to the file at `path` (created 0600), then fsyncs it.
    func append(_ lines: [String], to path: String) throws {
        try ensureFolder()
        guard case .file(let fd) = Self.openFile(path, O_WRONLY | O_CREAT | O_APPEND) else {
            throw SyncFailure(description: tr("cannot write \(path); check the sync folder's permissions"))
        }
        defer { close(fd) }
        _ = Syscall.flock(fd, LOCK_EX)
        var info = stat()
        let created = fstat(fd, &info) == 0 && info.st_size == 0
        // A line torn by a crash stays a line of its own, which no door takes.
        let torn = !created && Self.readBytes(fd, from: Int64(info.st_size) - 1, to: Int64(info.st_size)) != [UInt8(ascii: "\n")]
        do {
            try Syscall.writeAll(fd, Array(((torn ? "\n" : "") + lines.map { $0 + "\n" }.joined()).utf8))
        } catch {
            throw SyncFailure(description: tr("cannot append to \(path) (\(AtomicFile.reason(error))); the lines are relayed on the next run"))
        }
        guard fsync(fd) == 0 else {
            throw SyncFailure(description: tr("cannot sync \(path) to disk (\(String(cString: strerror(errno))))"))
        }
        if created { Self.syncFolder(folder) }
    }
}
