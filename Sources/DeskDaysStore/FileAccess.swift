import Localization
import DeskDaysCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system steps around the database: private folders and files.
///
/// docs/cli.md: files the program creates are mode 0600, their folders 0700.
/// SQLite creates its `-wal` and `-shm` files with the mode of the database
/// file, so creating the database file ourselves with 0600 covers them too.
enum FileAccess {
    /// A step that failed, as a phrase for `StoreError.cannotOpen`.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates every missing folder above `path` with mode 0700.
    static func makeParentFolders(of path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }
        var missing: [String] = []
        var folder = parent
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            missing.append(folder)
            let up = (folder as NSString).deletingLastPathComponent
            if up == folder || up.isEmpty { break }
            folder = up
        }
        if missing.isEmpty, !isDirectory.boolValue {
            throw Failure(description: tr("\(parent) is not a folder"))
        }
        for folder in missing.reversed() {
            // EEXIST: another process made it in the meantime, which is fine.
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw Failure(description: tr("cannot create the folder \(folder): \(String(cString: strerror(errno)))"))
            }
        }
    }

    /// Creates `path` empty with mode 0600 when it does not exist; returns whether it did.
    @discardableResult
    static func createPrivateFile(_ path: String) throws -> Bool {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return true
        }
        if errno == EEXIST { return false }
        throw Failure(description: tr("cannot create \(path): \(String(cString: strerror(errno)))"))
    }

    /// The size of the file at `path`, nil when there is none; throws for a folder.
    static func size(of path: String) throws -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw Failure(description: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(description: tr("it is not a regular file")) }
        return UInt64(info.st_size)
    }
}
