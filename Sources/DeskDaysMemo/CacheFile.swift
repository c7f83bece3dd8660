#if canImport(Glibc)
import Glibc
#endif

/// Small files DeskDays keeps in the user's cache folder (remembered
/// answers, `QuickCheckMemo`): named by a hash, written whole or not at all,
/// private to the user.
public enum CacheFile {
    /// `$XDG_CACHE_HOME/deskdays/NAME`, else `$HOME/.cache/deskdays/NAME`
    /// (only absolute values count, as the XDG spec asks); nil when neither
    /// is usable. `variable` reads the environment.
    public static func folder(_ name: String, variable: (String) -> String?) -> String? {
        if let cache = variable("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/deskdays/" + name }
        if let home = variable("HOME"), home.hasPrefix("/") { return home + "/.cache/deskdays/" + name }
        return nil
    }

    /// A 64-bit FNV-1a hash of `bytes`, in hexadecimal: a file name.
    public static func name(for bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Replaces `path` with `bytes` through a temporary file and a rename
    /// (mode 0600; the folder and any missing parent created 0700); whether
    /// it was written. No fsync: a cache lost in a crash is only recomputed.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/"), makeFolders(String(path[..<slash])) else { return false }
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Creates `folder` and any missing parent, mode 0700; whether it is a folder now.
    static func makeFolders(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            guard makeFolders(String(folder[..<slash])) else { return false }
        }
        return mkdir(folder, 0o700) == 0 || errno == EEXIST
    }
}
