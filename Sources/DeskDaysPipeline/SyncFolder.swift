import DeskDaysCore
import DeskDaysStore
import Foundation
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
    /// This device's id (random, kept in the database) and name.
    public let deviceID: String
    public let deviceName: String

    /// Makes `store` a syncing device (its history journaled once). The
    /// folder is only touched by `publish` and `merge`, so a folder out of
    /// reach delays the files, never a change.
    public init(store: AttendanceStore, folder: String, deviceName: String) throws {
        self.store = store
        self.folder = folder
        self.deviceName = deviceName
        deviceID = try store.enableSync(name: deviceName)
        // Before any change is numbered: lines of its own in the file that
        // the database lacks (restored from a backup) come back first.
        let fd = open(ownFile, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd >= 0 {
            defer { close(fd) }
            let end = Self.tail(fd)
            try recoverOwnLines(fd, size: end.complete, fileSeq: end.lastSeq)
        }
    }

    /// The end of a journal file: the bytes up to its last newline and the
    /// seq of its last complete line (0 when none can be read).
    static func tail(_ fd: Int32) -> (size: Int64, complete: Int64, lastSeq: Int64) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return (0, 0, 0) }
        let size = Int64(info.st_size)
        guard size > 0 else { return (0, 0, 0) }
        let start = max(0, size - 65_536)
        let tail = readBytes(fd, from: start, to: size)
        guard let lastNewline = tail.lastIndex(of: UInt8(ascii: "\n")) else { return (size, 0, 0) }
        let body = tail[..<lastNewline]
        let lineStart = body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        return (size, start + Int64(lastNewline) + 1, JournalEntry.decode(body[lineStart...]).map(\.seq) ?? 0)
    }

    /// Whether the file at `path` ends in an incomplete line (being
    /// written, or torn): its last byte alone is read.
    public static func endsInIncompleteLine(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return false }
        return readBytes(fd, from: Int64(info.st_size) - 1, to: Int64(info.st_size)) != [UInt8(ascii: "\n")]
    }

    /// Merges this device's own lines from its file when the file is ahead of the database.
    private func recoverOwnLines(_ fd: Int32, size: Int64, fileSeq: Int64) throws {
        let ownSeq = try store.syncDevices().first(where: \.isSelf)?.lastSeq ?? 0
        guard fileSeq > ownSeq else { return }
        let entries = Self.lines(Self.readBytes(fd, from: 0, to: size)[...]).compactMap { JournalEntry.decode($0) }
        try store.merge(device: deviceID, entries: entries.filter { $0.device == deviceID }, mergedBytes: 0)
    }

    /// Creates the folder (0700) when missing.
    func ensureFolder() throws {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw SyncFailure(description: tr("the sync folder \(folder) cannot be created (\(Self.reason(error))); create it or fix [sync] folder"))
            }
        } else if !isFolder.boolValue {
            throw SyncFailure(description: tr("the sync folder \(folder) is not a folder; fix [sync] folder"))
        }
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
    /// Lines of its own in the file that the database lacks (a database
    /// restored from a backup) are merged back, and numbering goes on after them.
    public func publish() throws {
        try ensureFolder()
        let path = ownFile
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw SyncFailure(description: tr("cannot write \(path) (\(reason)); check the sync folder's permissions"))
        }
        defer { close(fd) }
        // One writer at a time (the agent and a command may both publish).
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
        let end = Self.tail(fd)
        let size = end.complete
        // A torn last line of its own (a crash mid-write) is cut.
        if end.complete < end.size { _ = ftruncate(fd, off_t(end.complete)) }
        let fileSeq = end.lastSeq
        try recoverOwnLines(fd, size: size, fileSeq: fileSeq)
        let lines = try store.ownLines(after: fileSeq)
        guard !lines.isEmpty else { return }
        var bytes = [UInt8]()
        for line in lines {
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                // Never leave half a line behind: the next publish would cut it anyway.
                _ = ftruncate(fd, off_t(size))
                throw SyncFailure(description: tr("cannot append to \(path) (\(reason)); the change is kept in the database and written on the next run"))
            }
            offset += written
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
        /// Synchroniser conflict copies of journal files (never read).
        public var conflictCopies: [String] = []
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
    /// never read (each device writes only its own file, so the original
    /// holds every line), reported by `sync status`.
    static func isConflictCopy(_ name: String) -> Bool {
        guard name.hasPrefix("deskdays-") else { return false }
        let lower = name.lowercased()
        return lower.contains(".sync-conflict-") || lower.contains("conflicted copy") || lower.contains("conflict")
    }

    /// What a merge pass did.
    public struct MergeReport: Sendable {
        /// New lines merged.
        public var merged = 0
        /// One sentence per problem met (a newer file, a bad line, a conflict copy…).
        public var warnings: [String] = []
    }

    /// Merges every other device's journal: what was appended since the
    /// last pass, or the whole file when it shrank or was replaced.
    public func merge() throws -> MergeReport {
        var report = MergeReport()
        let scan = try scan()
        for name in scan.conflictCopies {
            report.warnings.append(tr("\(name) in the sync folder is a conflict copy made by the synchroniser; it is not read (the original holds every line), delete it"))
        }
        let known = Dictionary(try store.syncDevices().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, path) in scan.journals {
            if known[id]?.forgotten == true { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else {
                if errno != ENOENT {
                    let reason = String(cString: strerror(errno))
                    report.warnings.append(tr("cannot read \(path) (\(reason)); its device's changes wait until it can be read"))
                }
                continue
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let size = Int64(info.st_size)
            var start = known[id]?.mergedBytes ?? 0
            if size == start { continue }
            // Shrunk, or replaced (the byte before where we stopped is no
            // longer a line end): read it again from the start.
            if size < start || (start > 0 && Self.readBytes(fd, from: start - 1, to: start) != [UInt8(ascii: "\n")]) {
                start = 0
            }
            let bytes = Self.readBytes(fd, from: start, to: size)
            guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let lines = Self.lines(bytes[...lastNewline])
            var (entries, failed) = Self.decode(lines, device: id)
            // Lines that are not its device's journal lines are skipped; a
            // line of a newer format skips the whole file.
            var newer = false
            var skipped = Set(failed)
            for index in failed where (Self.version(of: lines[index]) ?? 0) > JournalEntry.version { newer = true }
            for index in entries.indices where !skipped.contains(index) {
                if entries[index].v > JournalEntry.version { newer = true }
                if entries[index].device != id { skipped.insert(index) }
            }
            let bad = skipped.count
            if bad > 0, !newer {
                entries = entries.indices.filter { !skipped.contains($0) }.map { entries[$0] }
            }
            if newer {
                report.warnings.append(tr("\(path) was written by a newer DeskDays; it is skipped until this one is updated"))
                continue
            }
            if bad > 0 {
                report.warnings.append(trn("\(path) has \(bad) line that is not a DeskDays journal line of its device; it is skipped",
                                           "\(path) has \(bad) lines that are not DeskDays journal lines of its device; they are skipped", bad))
            }
            report.merged += try store.merge(device: id, entries: entries, mergedBytes: start + Int64(lastNewline) + 1)
        }
        return report
    }

    /// Each line decoded, a long file's in parts on every core, and the
    /// indexes of those that are not journal lines (in order; their slots
    /// hold a line of no device). Its lines share the id's storage: the
    /// merge compares them.
    static func decode(_ lines: [ArraySlice<UInt8>], device id: String) -> (entries: [JournalEntry], failed: [Int]) {
        let parts = lines.count < 4_096 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
        let size = (lines.count + parts - 1) / parts
        var failed = [[Int]](repeating: [], count: parts)
        // Each entry is made in its place: a copy would retain every field.
        let entries = [JournalEntry](unsafeUninitializedCapacity: lines.count) { buffer, initialized in
            failed.withUnsafeMutableBufferPointer { failedBuffer in
                // Each part writes its own indexes and its own list only.
                nonisolated(unsafe) let entries = buffer, failed = failedBuffer
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    for index in part * size..<min(lines.count, (part + 1) * size) {
                        if let entry = JournalEntry.decode(lines[index], device: id) {
                            (entries.baseAddress! + index).initialize(to: entry)
                        } else {
                            (entries.baseAddress! + index).initialize(to: JournalEntry(v: 0, device: "", name: "", seq: 0, hlc: 0,
                                                                                       n: 0, op: "", date: ""))
                            failed[part].append(index)
                        }
                    }
                }
            }
            initialized = lines.count
        }
        return (entries, failed.flatMap { $0 })
    }

    /// The `v` of a line that does not decode as this build's (a newer
    /// format may have fields this one does not know the shape of).
    static func version(of line: ArraySlice<UInt8>) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
        return object["v"] as? Int
    }

    // MARK: - Files

    /// The complete lines of `bytes` (without their newlines), sharing its storage.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        // memchr, not a loop by hand nor the generic `split`.
        var lines: [ArraySlice<UInt8>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let end = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
                    .map { $0.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base) } ?? buffer.count
                if end > start { lines.append(bytes[(bytes.startIndex + start)..<(bytes.startIndex + end)]) }
                start = end + 1
            }
        }
        return lines
    }

    static func readBytes(_ fd: Int32, from start: Int64, to end: Int64) -> [UInt8] {
        guard end > start else { return [] }
        // Not zeroed first: pread fills it, and only what it filled is kept
        // (fewer when the file shrank meanwhile).
        return [UInt8](unsafeUninitializedCapacity: Int(end - start)) { buffer, initialized in
            var done = 0
            while done < buffer.count {
                let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(start) + off_t(done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
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

    static func reason(_ error: Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
