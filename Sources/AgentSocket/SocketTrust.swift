import Localization
#if canImport(Glibc)
import Glibc
#endif

/// Whether a control socket can be trusted to be this user's agent
/// (docs/cli.md, "The control socket"): checked before a byte is sent.
public enum SocketTrust {
    /// Why the socket at `path` cannot be trusted: its folder must belong to
    /// this user with mode 0700 (no one else may create or replace the socket
    /// in it), and the socket must be ours. Nil when it can be (or when
    /// nothing is there: that is "no agent").
    public static func doubt(about path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) != S_IFSOCK { return tr("it is not a socket") }
        if info.st_uid != getuid() { return tr("it belongs to another user") }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard lstat(folder.isEmpty ? "/" : folder, &info) == 0 else { return tr("its folder cannot be examined") }
        if (info.st_mode & S_IFMT) != S_IFDIR { return tr("its folder \(folder) is not a folder") }
        if info.st_uid != getuid() { return tr("its folder \(folder) belongs to another user") }
        if info.st_mode & 0o077 != 0 {
            return tr("its folder \(folder) is open to others (mode \(String(info.st_mode & 0o777, radix: 8)), not 700)")
        }
        return nil
    }
}
