#if canImport(Glibc)
import Glibc
#endif

/// Where things live (docs/cli.md, "Where things live"), in one place for
/// the launcher and the CLI: the configuration, the database and the
/// agent's control socket, after the environment and the XDG defaults.
/// `environment` looks a variable up (the process's own, or a test's).
public struct AgentPaths: Sendable {
    public let environment: @Sendable (String) -> String?
    /// The home folder when `$HOME` is not set (the CLI asks the password
    /// database; the launcher, linked statically, does not and defers to it).
    let homeFallback: @Sendable () -> String

    public init(environment: @escaping @Sendable (String) -> String?, homeFallback: @escaping @Sendable () -> String = { "/" }) {
        self.environment = environment
        self.homeFallback = homeFallback
    }

    /// The running process's environment, read with `getenv`.
    public static let process = AgentPaths { name in getenv(name).map { String(cString: $0) } }

    /// Whether `$HOME` is set.
    public var hasHome: Bool { !(environment("HOME") ?? "").isEmpty }

    /// `$HOME`, else the fallback.
    public var home: String {
        if let home = environment("HOME"), !home.isEmpty { return home }
        return homeFallback()
    }

    /// `~` and `~/…` expanded.
    public func expandTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + String(path.dropFirst()) }
        return path
    }

    /// `$VAR` when set and absolute (as the XDG spec requires), else `~/fallback`.
    public func xdgDirectory(_ variable: String, fallback: String) -> String {
        if let value = environment(variable), value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }

    /// A named path from `DESKDAYS_…`, when set and not empty.
    func named(_ variable: String) -> String? {
        guard let value = environment(variable), !value.isEmpty else { return nil }
        return expandTilde(value)
    }

    /// `DESKDAYS_CONFIG`, else `$XDG_CONFIG_HOME/deskdays/config.toml`.
    public var config: String {
        named("DESKDAYS_CONFIG") ?? xdgDirectory("XDG_CONFIG_HOME", fallback: ".config") + "/deskdays/config.toml"
    }

    /// `DESKDAYS_DATABASE`, else `$XDG_DATA_HOME/deskdays/deskdays.sqlite`.
    public var database: String {
        named("DESKDAYS_DATABASE") ?? xdgDirectory("XDG_DATA_HOME", fallback: ".local/share") + "/deskdays/deskdays.sqlite"
    }

    /// `$XDG_RUNTIME_DIR/deskdays/agent.sock`; with no runtime folder (a
    /// bare root shell, a container) a private folder under /tmp named after
    /// the uid, which the agent makes 0700 and owned by this user; and when
    /// that name is taken by something not this user's own folder (another
    /// user planted it), `$XDG_STATE_HOME/deskdays/agent.sock` instead:
    /// the agent and its clients come to the same place, and nobody else
    /// can keep the agent from starting.
    public var socket: String {
        if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            return runtime + "/deskdays/agent.sock"
        }
        if let taken = socketFolderTaken { return taken.instead }
        return "/tmp/deskdays-\(getuid())/agent.sock"
    }

    /// The /tmp folder the socket would be in when something other than
    /// this user's own folder is there, and where the socket is instead;
    /// nil when it is free or this user's (the agent says so in its log).
    public var socketFolderTaken: (folder: String, instead: String)? {
        guard !(environment("XDG_RUNTIME_DIR") ?? "").hasPrefix("/") else { return nil }
        let folder = "/tmp/deskdays-\(getuid())"
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR || info.st_uid != getuid() else { return nil }
        return (folder, xdgDirectory("XDG_STATE_HOME", fallback: ".local/state") + "/deskdays/agent.sock")
    }

    /// A path as the agent and its clients compare it (`AnswerScope`):
    /// absolute, with symbolic links and `.`/`..` resolved; a file not there
    /// yet is named in its resolved folder.
    public static func canonical(_ path: String) -> String {
        if let resolved = resolve(path) { return resolved }
        let absolute = absolute(path)
        guard let slash = absolute.lastIndex(of: "/"), slash != absolute.startIndex,
              let folder = resolve(String(absolute[..<slash])) else { return absolute }
        return (folder == "/" ? "" : folder) + absolute[slash...]
    }

    /// `path` against this process's folder when it is relative; as it is otherwise.
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return String(cString: folder) + "/" + path
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
