import Syscall
import Localization
import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import Foundation
import Logging
import Synchronization
import SystemBus

/// Desktop notifications through the freedesktop Notifications D-Bus
/// interface (`org.freedesktop.Notifications.Notify` on the session bus),
/// called with libsystemd's sd-bus, which the agent already links for the
/// sleep watcher: no child process, no GLib.
///
/// A reminder comes at most once a day, so each one opens its own session
/// bus connection and closes it afterwards; nothing stays connected. The
/// call runs on a thread of its own (sd-bus objects belong to one thread,
/// and blocking there keeps the cooperative pool free) and is bounded by
/// `timeoutSeconds`, so a hung notification daemon or bus holds the timers
/// up for seconds at most; stopping the agent ends it at once.
///
/// Only unix-socket addresses are used (`DBUS_SESSION_BUS_ADDRESS`, else
/// `unix:path=$XDG_RUNTIME_DIR/bus`): an address naming TCP or a program is
/// refused, so the agent never opens an internet socket for it. Missing
/// pieces (no session bus, no notification daemon) are logged, the first
/// time as a warning, and the agent carries on; nothing is retried.
public final class DesktopNotifier: Sendable {
    package static let destination = "org.freedesktop.Notifications"
    package static let objectPath = "/org/freedesktop/Notifications"
    package static let interface = "org.freedesktop.Notifications"
    /// What a notification's icon says, from the freedesktop icon naming
    /// specification (every theme has them): the alarm only for a question
    /// awaiting an answer, a check mark for something recorded, a calendar
    /// for the weekly summary, a document for a report written but not opened.
    public enum Icon: String, Sendable {
        case question = "appointment-soon", recorded = "emblem-default", summary = "x-office-calendar", document = "x-office-document",
             warning = "dialog-warning"
    }
    package static let timeoutSeconds: UInt64 = 5

    /// The session bus address, nil when there is none.
    package let address: String?
    private let logger: Logger
    private let warned = Mutex(false)

    public init(logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.logger = logger
        address = Self.sessionAddress(environment: environment)
    }

    /// `DBUS_SESSION_BUS_ADDRESS`, else the systemd user session's `$XDG_RUNTIME_DIR/bus`; nil when neither is set.
    package static func sessionAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let escaped = runtime.addingPercentEncoding(withAllowedCharacters: Self.unescaped) ?? runtime
        return "unix:path=\(escaped)/bus"
    }

    /// The bytes D-Bus addresses may carry unescaped.
    private static let unescaped = CharacterSet(charactersIn: "-_/\\.*")
        .union(CharacterSet(charactersIn: "a"..."z")).union(CharacterSet(charactersIn: "A"..."Z"))
        .union(CharacterSet(charactersIn: "0"..."9"))

    /// Why notifications cannot be shown here, or nil when they can be tried (for `deskdays doctor`).
    public func unavailableReason() -> String? {
        guard let address else { return tr("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR unset)") }
        guard BusSupport.isUnixOnly(address) else { return tr("the session bus address is not a unix socket") }
        // Abstract sockets cannot be looked for; a listed socket file can.
        let paths = BusSupport.socketPaths(address)
        if !paths.isEmpty, !paths.contains(where: Self.isSocket) {
            return tr("no D-Bus session bus (\(paths.joined(separator: ", ")) does not exist)")

        }
        return nil
    }

    private static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Where a quiet notification goes first: the agent's session-bus
    /// connection (`DesktopBus.announce`), which hears its activation; false when it has none.
    private let route = Mutex<(@Sendable (_ title: String, _ body: String) async -> Bool)?>(nil)

    /// Sends quiet notifications through `show` from now on, while it takes them.
    package func attach(_ show: @escaping @Sendable (_ title: String, _ body: String) async -> Bool) {
        route.withLock { $0 = show }
    }

    /// Shows a notification; failures are logged (the first one as a warning), never thrown.
    /// `quiet`: no sound (the hint `suppress-sound`), for a confirmation, which
    /// goes through the attached connection (it opens the window when activated).
    public func notify(_ icon: Icon, title: String, body: String, quiet: Bool = false) async {
        if quiet, let show = route.withLock({ $0 }), await show(title, body) { return }
        guard let address else {
            complain("cannot show desktop notifications: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR unset)")
            return
        }
        guard BusSupport.isUnixOnly(address) else {
            complain("cannot show desktop notifications: the session bus address is not a unix socket")
            return
        }
        switch await Self.call(address: address, icon: icon, title: title, body: body, quiet: quiet) {
        case .shown(let id):
            logger.info("\(quiet ? "confirmation" : "reminder") shown as a desktop notification (id \(id))")
        case .noBus(let reason):
            complain("cannot show desktop notifications: no D-Bus session bus (\(reason))")
        case .failed(let reason):
            complain("the desktop notification could not be shown (\(reason))")
        case .stopped:
            break
        }
    }

    /// Logs why a notification was not shown: the first time as a warning, then at info.
    package func complain(_ message: String) {
        let first = warned.withLock { done in
            defer { done = true }
            return !done
        }
        if first { logger.warning("\(message); reminders are logged only") } else { logger.info("\(message)") }
    }

    /// How one notification went.
    package enum Outcome: Equatable {
        /// The daemon's id for it.
        case shown(UInt32)
        /// No connection could be made.
        case noBus(String)
        /// Connected, but no notification (no daemon owns the name, it refused, or it did not answer in time).
        case failed(String)
        /// The agent is stopping.
        case stopped
    }

    /// One `Notify` on a connection of its own, on a thread of its own; cancellation ends it at once.
    package static func call(address: String, icon: Icon, title: String, body: String, quiet: Bool = false) async -> Outcome {
        let stop = StopSignal()
        guard stop.descriptor >= 0 else { return .failed("cannot create a pipe: \(String(cString: strerror(errno)))") }
        return await DeviceStream.run(name: "deskdays-notify", stop: stop) { stop in
            send(address: address, icon: icon, title: title, body: body, quiet: quiet, stop: stop)
        }
    }

    /// Connects, sends `Notify`, dispatches until the reply, the deadline or a stop, and closes.
    private static func send(address: String, icon: Icon, title: String, body: String, quiet: Bool, stop: StopSignal) -> Outcome {
        // sd-bus times the call out itself; this bounds the connection and authentication too.
        let deadline = BusSupport.monotonicMicroseconds() + (timeoutSeconds + 1) * 1_000_000
        let bus: OpaquePointer
        switch BusSupport.connect(address) {
        case .success(let connected): bus = connected
        case .failure(let failure): return .noBus(failure.reason)
        }
        // No flush on close: once the reply is in, everything was sent, and a flush could wait on a hung bus.
        defer { BusSupport.close(bus) }
        // Filled in by the reply callback, which runs on this thread inside the dispatch.
        var outcome: Outcome?
        let failure = BusSupport.callAsync(bus, destination: destination, path: objectPath, interface: interface, member: "Notify",
                                           timeoutMicroseconds: timeoutSeconds * 1_000_000,
                                           build: { appendNotify(to: $0, icon: icon, title: title, body: body, quiet: quiet) }) { reply in
            if let failure = BusSupport.failure(of: reply) {
                outcome = .failed(failure)
            } else {
                outcome = BusSupport.read(reply, "u", as: UInt32.self, zero: 0).map(Outcome.shown)
                    ?? .failed("the notification daemon's answer was not an id")
            }
        }
        if let failure { return .noBus(failure) }
        switch BusSupport.dispatch(bus, stop: stop.descriptor, deadline: deadline, done: { outcome != nil }) {
        case .done: return outcome ?? .failed("no answer")
        case .stopped: return .stopped
        case .timedOut: return .failed("no answer within \(timeoutSeconds + 1) s")
        case .lost(let reason): return .noBus(reason)
        }
    }

    /// A title as sent: in a right-to-left language it begins with U+200F
    /// (RIGHT-TO-LEFT MARK), so a daemon that takes a line's direction from
    /// its first strong character (xfce4-notifyd) lays it out right to left.
    package static func shown(title: String) -> String {
        Localization.rightToLeft && !title.hasPrefix("\u{200F}") ? "\u{200F}" + title : title
    }

    /// The arguments, signature `susssasa{sv}i`: app name, `replaces` (0: a new one), icon, summary, body,
    /// `actions` (key, label, key, label…), the hint urgency 1 (normal), and
    /// `expires` (-1: the server's default; 0: never, for a question with answers).
    package static func appendNotify(to message: OpaquePointer, icon: Icon, title: String, body: String, actions: [String] = [],
                             replaces: UInt32 = 0, expires: Int32 = -1, quiet: Bool = false) -> Int32 {
        func string(_ value: String) -> Int32 { BusSupport.append(message, string: value) }
        /// One `{sv}` hint.
        func hint<T>(_ name: String, _ type: Character, _ value: T) -> Int32 {
            BusSupport.container(message, "e", "sv") {
                BusSupport.steps([{ string(name) }, { BusSupport.container(message, "v", String(type)) { BusSupport.append(message, type, value) } }])
            }
        }
        return BusSupport.steps([
            { string("DeskDays") }, { BusSupport.append(message, "u", replaces) }, { string(icon.rawValue) }, { string(shown(title: title)) }, { string(body) },
            { BusSupport.container(message, "a", "s") { BusSupport.steps(actions.map { action in { string(action) } }) } },
            { BusSupport.container(message, "a", "{sv}") {
                BusSupport.steps([{ hint("urgency", "y", UInt8(1)) }] + (quiet ? [{ hint("suppress-sound", "b", Int32(1)) }] : []))
            } },
            { BusSupport.append(message, "i", expires) },
        ])
    }
}
