import Foundation
import Localization
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

extension PathCheck {
    /// Why a file or folder DeskDays trusts as the user's own (the
    /// configuration, the sync folder, the calendar folder) is not to be
    /// trusted, as ssh's StrictModes judges it, or nil: after symbolic links,
    /// it and every folder above it must belong to the user or to root and
    /// be writable by no one else (a folder with the sticky bit, like /tmp,
    /// and the user's own group, as private-group systems make it, aside).
    /// Whoever else can write there could plant a line or a policy.
    /// Inside a user namespace that does not map root (a user unit with
    /// systemd's `PrivateUsers=yes`: a user manager can map only its own
    /// uid), root's files (`/`, `/home`) show as the overflow uid: taken for
    /// root's there. Nil where root is mapped (every other process).
    static let unmappedRoot: uid_t? = {
        guard let map = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8) else { return nil }
        let rootMapped = map.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).compactMap { UInt64($0) }
            return fields.count == 3 && fields[0] == 0 && fields[2] > 0
        }
        guard !rootMapped else { return nil }
        let overflow = (try? String(contentsOfFile: "/proc/sys/kernel/overflowuid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return overflow.flatMap { uid_t($0) } ?? 65534
    }()

    public static func trustProblem(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        var current = String(cString: resolved)
        let uid = getuid(), gid = getgid()
        while true {
            var info = stat()
            guard stat(current, &info) == 0 else { return nil }
            if info.st_uid != uid && info.st_uid != 0 && info.st_uid != unmappedRoot {
                return tr("\(current) belongs to another user (uid \(info.st_uid)); use a file or folder of your own, or `chown` it to you")
            }
            let sticky = (info.st_mode & S_IFMT) == S_IFDIR && (info.st_mode & S_ISVTX) != 0
            let groupWritable = (info.st_mode & S_IWGRP) != 0 && info.st_gid != gid
            if !sticky, (info.st_mode & S_IWOTH) != 0 || groupWritable {
                let mode = String(info.st_mode & 0o7777, radix: 8)
                return tr("\(current) can be written by other users (mode \(mode)); `chmod go-w \(current)`")
            }
            guard current != "/" else { return nil }
            let parent = (current as NSString).deletingLastPathComponent
            current = parent.isEmpty ? "/" : parent
        }
    }
}
