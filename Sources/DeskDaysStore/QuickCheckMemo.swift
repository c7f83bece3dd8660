import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Remembers which state of a database file last passed `PRAGMA quick_check`,
/// so the check runs on the first open after every change rather than on
/// every open.
///
/// Why: `quick_check` reads every page and evaluates every CHECK constraint;
/// on ten years of history that is about 13 ms, more than everything else a
/// `deskdays status` does, and a status bar may ask every few seconds. A file
/// that has not changed since it passed cannot have grown new damage through
/// SQLite, and damage on the pages a command reads still surfaces as
/// `SQLITE_CORRUPT` (exit 2) there.
///
/// "Unchanged" is the fingerprint of the database file (device, inode,
/// size, modification and status-change times in nanoseconds) and of its
/// `-wal` (size and modification time). The status-change time cannot be
/// set back by `touch` or a copy tool, so an edited file is checked again
/// even with its old modification time restored. The memo is a cache: one small file per
/// database under the user's cache folder (mode 0600, folder 0700), never
/// required — when it cannot be read or written, the check simply runs.
public struct QuickCheckMemo: Sendable {
    /// The folder holding the memo files.
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/deskdays/verified` (or `~/.cache/...`); nil when neither is set.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> QuickCheckMemo? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return QuickCheckMemo(folder: cache + "/deskdays/verified")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return QuickCheckMemo(folder: home + "/.cache/deskdays/verified")
        }
        return nil
    }

    /// The file's current fingerprint, nil when it cannot be read.
    static func fingerprint(of path: String) -> String? {
        var main = stat(), wal = stat()
        guard stat(path, &main) == 0 else { return nil }
        let text = "\(main.st_dev):\(main.st_ino):\(main.st_size):"
            + "\(main.st_mtim.tv_sec).\(main.st_mtim.tv_nsec):\(main.st_ctim.tv_sec).\(main.st_ctim.tv_nsec)"
        // The -wal holds committed changes not yet copied into the file. An
        // empty or absent one holds nothing; readers create it and (as root)
        // chown it, so only its size and modification time, which every
        // write moves, describe it.
        guard stat(path + "-wal", &wal) == 0 else { return errno == ENOENT ? text + " -" : nil }
        if wal.st_size == 0 { return text + " -" }
        return text + " \(wal.st_size):\(wal.st_mtim.tv_sec).\(wal.st_mtim.tv_nsec)"
    }

    /// Whether `path` passed the check in exactly the state `fingerprint` describes.
    func passed(_ path: String, fingerprint: String) -> Bool {
        guard let text = try? String(contentsOfFile: memoPath(for: path), encoding: .utf8) else { return false }
        return text == memoText(path, fingerprint)
    }

    /// Records that `path` passed in the state `fingerprint` describes; failures are ignored (it is a cache).
    func remember(_ path: String, fingerprint: String) {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        let target = memoPath(for: path)
        let temporary = target + ".\(getpid())"
        let data = Data(memoText(path, fingerprint).utf8)
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written == data.count { rename(temporary, target) } else { unlink(temporary) }
    }

    /// The database's absolute path leads the memo, so a hash collision can never vouch for another file.
    private func memoText(_ path: String, _ fingerprint: String) -> String {
        "\(absolute(path))\n\(fingerprint)\n"
    }

    /// One memo per database: named by a 64-bit FNV-1a hash of its absolute path.
    private func memoPath(for path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute(path).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return folder + "/" + String(hash, radix: 16)
    }

    private func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
