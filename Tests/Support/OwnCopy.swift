import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FileManager {
    /// Copies `source` (a file or a folder) to `target` as this process's own
    /// files. A checkout may belong to another user (CI may clone as one), and
    /// root's `copyItem` keeps the owner: DeskDays refuses a configuration or
    /// a calendar folder of another user, as it should.
    public func copyAsOwn(atPath source: String, toPath target: String) throws {
        try copyItem(atPath: source, toPath: target)
        var paths = [target]
        if let inner = enumerator(atPath: target) {
            while let path = inner.nextObject() as? String { paths.append(target + "/" + path) }
        }
        for path in paths where lchown(path, getuid(), getgid()) != 0 {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
