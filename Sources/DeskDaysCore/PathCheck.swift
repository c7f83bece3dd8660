import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a path the program is about to read is there, absent, or there
/// but out of reach. Only "absent" may be read as "nothing yet": a dangling
/// symbolic link, a loop or a folder that cannot be searched is a problem to
/// name, never an empty history or the default policy (docs/cli.md).
public enum PathCheck: Equatable, Sendable {
    case present
    /// Nothing at the path (and no symbolic link pointing nowhere).
    case absent
    /// Why the path cannot be reached, in a few words.
    case unreachable(String)

    public static func reach(_ path: String) -> PathCheck {
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return .unreachable(tr("it is a folder")) }
            return access(path, R_OK) == 0 ? .present : .unreachable(tr("it cannot be read: \(String(cString: strerror(EACCES)))"))
        }
        let code = errno
        if code == ENOENT {
            if lstat(path, &info) == 0 { return .unreachable(tr("it is a symbolic link to nothing")) }
            return .absent
        }
        return .unreachable(String(cString: strerror(code)))
    }
}
