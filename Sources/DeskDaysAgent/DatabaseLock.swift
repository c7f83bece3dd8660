#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One agent per database: an exclusive `flock` on the database's folder,
/// held (close-on-exec) until the agent's process ends, whatever socket it
/// serves. A second agent (one started from a shell without
/// `XDG_RUNTIME_DIR`, beside the unit) learns the holder's process id from
/// /proc/locks and says so.
public final class DatabaseLock: Sendable {
    private let descriptor: Int32

    /// Why the lock was not taken, as one sentence's parts.
    public enum Failure: Error {
        /// Another process holds it (its id when /proc/locks names it).
        case held(folder: String, holder: Int32?)
        /// The folder cannot be opened (its reason).
        case unreadable(folder: String, reason: String)
    }

    /// Takes the lock on the folder of `databasePath` without waiting.
    public init(databasePath: String) throws(Failure) {
        let folder = DatabaseLock.folder(of: databasePath)
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(folder: folder, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = reason == EWOULDBLOCK ? DatabaseLock.holder(of: fd) : nil
            close(fd)
            if reason == EWOULDBLOCK { throw .held(folder: folder, holder: holder) }
            throw .unreadable(folder: folder, reason: String(cString: strerror(reason)))
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    static func folder(of databasePath: String) -> String {
        let folder = (databasePath as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The process holding a `flock` on the file open at `fd`, from /proc/locks
    /// ("1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF"): nil when none is named.
    static func holder(of fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let dev = UInt64(info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff), minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        let place = String(format: "%02x:%02x:%llu", major, minor, UInt64(info.st_ino))
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // A lock someone waits for ("->") is not held.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == place,
                  let pid = Int32(fields[4]), pid != getpid() else { continue }
            return pid
        }
        return nil
    }
}
