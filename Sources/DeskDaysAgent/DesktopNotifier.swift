import Foundation
import Logging
import Synchronization

/// Desktop notifications through the freedesktop Notifications D-Bus
/// interface, by running `gdbus call` (GLib's command-line D-Bus client).
///
/// A child process keeps the agent free of a D-Bus library and its threads;
/// a reminder a day does not need more. Only a session bus reached over a
/// unix socket is used: an address naming TCP is refused, so even a strange
/// environment cannot make the agent's family open an internet socket.
/// Missing pieces (no gdbus, no session bus, no notification daemon) are
/// logged once and the agent carries on.
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdbusPath!)
        process.arguments = ["call", "--session", "--timeout", "10",
                             "--dest", "org.freedesktop.Notifications",
                             "--object-path", "/org/freedesktop/Notifications",
                             "--method", "org.freedesktop.Notifications.Notify",
                             "DeskDays", "0", "", title, body, "[]", "{}", "-1"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: -1)
            }
        }
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
}
