#if canImport(Glibc)
import Glibc
#endif

/// How the executables find each other (`deskdays` → `deskdays-cli` →
/// `deskdays-hardware`): beside the running one (a build folder, or
/// `libexec/deskdays` itself), then in its prefix's `libexec/deskdays`
/// (`make install`).
public enum Companion {
    /// This process's executable, resolved.
    public static func ownPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where the executable `name` may be, for the executable at `path`.
    public static func candidates(_ name: String, besides path: String) -> [String] {
        let folder = parent(path)
        return [folder + "/" + name, parent(folder) + "/libexec/deskdays/" + name]
    }

    /// The first candidate that can be run; nil when none can.
    public static func locate(_ name: String) -> (found: String?, looked: [String]) {
        let places = candidates(name, besides: ownPath())
        return (places.first { access($0, X_OK) == 0 }, places)
    }

    /// Replaces this process with `path` and the same arguments (same
    /// process id, so systemd's MAINPID stays right); returns only on failure,
    /// with the reason.
    public static func execute(_ path: String) -> String {
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(path, arguments)
        return String(cString: strerror(errno))
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
