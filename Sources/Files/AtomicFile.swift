import Syscall
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The one way DeskDays replaces a file it writes (the status files, the
/// HTML report, the reminder state, a user's `--out`, an edited
/// configuration): a new file beside it (`O_EXCL`, the given mode), written
/// whole (`Syscall.writeAll`, which goes on after a short write or a
/// signal), optionally synced, then renamed over the old one, so a reader
/// sees the old file or the new one, never a part; with `durable`, the
/// folder is synced too, so the rename survives a power cut.
public enum AtomicFile {
    /// Replaces `path` with `bytes`. The error is the system's (`Errno`);
    /// nothing is left behind on failure.
    public static func replace(_ path: String, with bytes: some Collection<UInt8>, mode: UInt16 = 0o600,
                               durable: Bool = false) throws(Errno) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = FilePath("\(folder)/.\(name).\(getpid()).tmp")
        // A temporary left by a process that died (killed mid-write) goes
        // first: this one's (same pid reused), and any whose process is gone.
        _ = unlink(temporary.string)
        removeStale(prefix: ".\(name).", in: folder)
        do {
            let descriptor = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                                     permissions: FilePermissions(rawValue: CModeT(mode)))
            try descriptor.closeAfter {
                try Syscall.writeAll(descriptor.rawValue, bytes)
                // open's mode passes through the umask; the file gets exactly `mode`.
                guard fchmod(descriptor.rawValue, mode_t(mode)) == 0 else { throw Errno(rawValue: errno) }
                if durable, fsync(descriptor.rawValue) != 0 { throw Errno(rawValue: errno) }
            }
            guard rename(temporary.string, path) == 0 else { throw Errno(rawValue: errno) }
        } catch let error as Errno {
            _ = unlink(temporary.string)
            throw error
        } catch {
            _ = unlink(temporary.string)
            throw Errno.ioError
        }
        if durable, let directory = try? FileDescriptor.open(FilePath(folder), .readOnly, options: [.directory, .closeOnExec]) {
            _ = fsync(directory.rawValue)
            try? directory.close()
        }
    }

    /// Removes `PREFIX<pid>.tmp` in `folder` whose process no longer runs.
    static func removeStale(prefix: String, in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard name.hasPrefix(prefix), name.hasSuffix(".tmp"),
                  let pid = Int32(name.dropFirst(prefix.count).dropLast(4)), pid > 0,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = unlink("\(folder)/\(name)")
        }
    }

    /// The system's sentence for `error` ("Permission denied").
    public static func reason(_ error: Errno) -> String { String(cString: strerror(error.rawValue)) }
}
