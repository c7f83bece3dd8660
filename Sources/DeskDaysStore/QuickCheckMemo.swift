import DeskDaysMemo
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
        CacheFile.folder("verified") { environment[$0] }.map(QuickCheckMemo.init(folder:))
    }

    /// The file's current fingerprint, nil when it cannot be read: the
    /// file's and its `-wal`'s states (`AnswerMemo.fingerprint`). The -wal
    /// holds committed changes not yet copied into the file; an empty or
    /// absent one holds nothing.
    static func fingerprint(of path: String) -> String? {
        guard let main = AnswerMemo.fingerprint(path), main != "-",
              let wal = AnswerMemo.fingerprint(path + "-wal") else { return nil }
        return main + " " + wal
    }

    /// Whether `path` passed the check in exactly the state `fingerprint` describes.
    func passed(_ path: String, fingerprint: String) -> Bool {
        guard let text = try? String(contentsOfFile: memoPath(for: path), encoding: .utf8) else { return false }
        return text == memoText(path, fingerprint)
    }

    /// Records that `path` passed in the state `fingerprint` describes; failures are ignored (it is a cache).
    func remember(_ path: String, fingerprint: String) {
        CacheFile.write(Array(memoText(path, fingerprint).utf8), to: memoPath(for: path))
    }

    /// The database's absolute path leads the memo, so a hash collision can never vouch for another file.
    private func memoText(_ path: String, _ fingerprint: String) -> String {
        "\(absolute(path))\n\(fingerprint)\n"
    }

    /// One memo per database: named by a hash of its absolute path.
    private func memoPath(for path: String) -> String {
        folder + "/" + CacheFile.name(for: absolute(path).utf8)
    }

    private func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
