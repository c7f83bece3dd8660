import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Desktop notifications through the freedesktop Notifications D-Bus
/// interface, by running `gdbus call` (GLib's command-line D-Bus client).
///
/// A child process keeps the agent free of a D-Bus library and its threads;
/// a reminder a day does not need more. Only a session bus reached over a
/// unix socket is used: an address naming TCP is refused, so even a strange
/// environment cannot make the agent's family open an internet socket.
/// Missing pieces (no gdbus, no session bus, no notification daemon) are
/// logged once and the agent carries on.
///
/// The child is started with `posix_spawn`, not Foundation's `Process`:
/// swift-corelibs-foundation's `Process.run()` creates internet (IPv4) datagram
/// sockets for its CFSocket run-loop wake-ups, which the unit's
/// `RestrictAddressFamilies` forbids and the strace test catches.
public final class DesktopNotifier: Sendable {
    private let logger: Logger
    private let environment: [String: String]
    private let warned = Mutex(false)

    public init(logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.logger = logger
        self.environment = environment
    }

    /// Why notifications cannot be shown here, or nil when they can be tried.
    public func unavailableReason() -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            // Several addresses may be listed; each must be a unix one.
            let kinds = address.split(separator: ";").map { $0.split(separator: ":").first.map(String.init) ?? "" }
            if !kinds.allSatisfy({ $0 == "unix" }) { return "the session bus address is not a unix socket" }
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") else {
                return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset and no $XDG_RUNTIME_DIR/bus)"
            }
        }
        guard gdbusPath != nil else { return "gdbus not found (apt-get install libglib2.0-bin)" }
        return nil
    }

    private var gdbusPath: String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/gdbus" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Shows a notification; failures are logged (the first one as a warning), never thrown.
    public func notify(title: String, body: String) async {
        if let reason = unavailableReason() {
            complainOnce("cannot show desktop notifications: \(reason)")
            return
        }
        let arguments = ["call", "--session", "--timeout", "10",
                         "--dest", "org.freedesktop.Notifications",
                         "--object-path", "/org/freedesktop/Notifications",
                         "--method", "org.freedesktop.Notifications.Notify",
                         "DeskDays", "0", "", title, body, "[]", "{}", "-1"]
        let status = await Self.spawnAndWait(gdbusPath!, arguments: arguments, environment: environment)
        if status != 0 {
            complainOnce("the desktop notification could not be shown (no notification daemon on the session bus?)")
        }
    }

    private func complainOnce(_ message: String) {
        let first = warned.withLock { done in
            defer { done = true }
            return !done
        }
        if first { logger.warning("\(message); reminders are logged only") } else { logger.info("\(message)") }
    }

    /// Runs `path` with `arguments`, output discarded, signals at their defaults; its exit status (-1: could not start).
    static func spawnAndWait(_ path: String, arguments: [String], environment: [String: String]) async -> Int32 {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The agent ignores SIGPIPE and may block others: the child starts clean.
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, &fileActions, &attributes, argv, envp) == 0 else { return -1 }
        let child = pid
        return await withCheckedContinuation { continuation in
            // A blocking wait for this one child, off the cooperative pool.
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
                let exited = status & 0x7f == 0
                continuation.resume(returning: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            }
        }
    }
}
