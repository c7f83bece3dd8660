import DeviceThread
#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import Foundation
import Logging
import Synchronization
import SystemBus

/// Watches logind's `PrepareForSleep(b)` signal on the system bus (true:
/// the machine is about to suspend or hibernate; false: it has resumed).
///
/// sd-bus objects belong to the thread that uses them, so the connection is
/// opened, read and closed on one dedicated thread, which blocks in `poll()`
/// on the bus and on a stop pipe: no wake-ups while nothing happens, and a
/// prompt end when the agent stops.
///
/// Security: the match names the sender `org.freedesktop.login1`. The bus
/// daemon checks a well-known sender name against the name's current owner,
/// and on the system bus only logind may own that name, so no other local
/// program can make the agent re-arm (and if one could, a re-arm is harmless).
///
/// Only unix-socket bus addresses are used (`DBUS_SYSTEM_BUS_ADDRESS`, else
/// `/run/dbus/system_bus_socket`): an address naming TCP or a program is
/// refused, so the agent never opens an internet socket for the bus.
///
/// No system bus (a container, CI): one info line and nothing more; the
/// adapters still recover from device loss on their own. A bus lost later
/// (dbus restarted) is reconnected with backoff, logged once.
final class SleepWatcher: Sendable {
    static let sender = "org.freedesktop.login1"
    static let objectPath = "/org/freedesktop/login1"
    static let interface = "org.freedesktop.login1.Manager"
    static let member = "PrepareForSleep"

    let address: String
    private let logger: Logger

    init(environment: [String: String], logger: Logger) {
        address = BusSupport.systemAddress(environment: environment)
        self.logger = logger
    }

    /// Calls `onChange` (on the watcher's thread) for every `PrepareForSleep`
    /// until the calling task is cancelled or there is no system bus.
    func run(onChange: @escaping @Sendable (_ sleeping: Bool) -> Void) async {
        guard BusSupport.isUnixOnly(address) else {
            logger.info("the system bus address is not a unix socket; suspend and resume are not watched")
            return
        }
        let stop = StopSignal()
        guard stop.descriptor >= 0 else {
            logger.info("cannot create a pipe (\(String(cString: strerror(errno)))); suspend and resume are not watched")
            return
        }
        let context = Context(onChange: onChange, logger: logger)
        await DeviceStream.run(name: "deskdays-sleep", stop: stop) { stop in self.loop(stop: stop, context: context) }
    }

    /// What the sd-bus callbacks reach through their `userdata` pointer.
    private final class Context: Sendable {
        /// The bus daemon's answer to the match request: nil while pending, else the refusal (or "" when accepted).
        let matchAnswer = Mutex<String?>(nil)
        let onChange: @Sendable (Bool) -> Void
        let logger: Logger

        init(onChange: @escaping @Sendable (Bool) -> Void, logger: Logger) {
            self.onChange = onChange
            self.logger = logger
        }
    }

    /// How one connection ended.
    private enum Outcome {
        case stopped
        /// No connection could be made.
        case noBus(String)
        /// The daemon refused the match (its policy): retrying would not help.
        case refused(String)
        /// A working connection failed (the daemon restarted).
        case lost(String)
    }

    /// Connections until stopped: none at all ends the watch, a lost one is
    /// retried with backoff (5 s doubling to 5 min), logged once per outage.
    private func loop(stop: StopSignal, context: Context) {
        var delay = Backoff(initialSeconds: 5, maximumSeconds: 300)
        var everConnected = false
        while true {
            switch watch(stop: stop, context: context, connected: { everConnected = true }) {
            case .stopped:
                return
            case .refused(let reason):
                logger.info("the system bus refused to pass on logind's PrepareForSleep (\(reason)); suspend and resume are not watched")
                return
            case .noBus(let reason) where !everConnected:
                logger.info("no system bus (\(reason)); suspend and resume are not watched, adapters still recover on their own")
                return
            case .noBus:
                break  // still away; the loss was logged
            case .lost(let reason):
                logger.info("lost the system bus (\(reason)); reconnecting in the background")
            }
            guard stop.sleep(delay.next()) else { return }
        }
    }

    /// One connection: connect, ask for the signal, dispatch until stopped or failed.
    private func watch(stop: StopSignal, context: Context, connected: () -> Void) -> Outcome {
        let bus: OpaquePointer
        switch BusSupport.connect(address) {
        case .success(let started): bus = started
        case .failure(let failure): return .noBus(failure.reason)
        }
        defer { BusSupport.close(bus, flush: true) }
        connected()
        context.matchAnswer.withLock { $0 = nil }
        // Asynchronous, so a silent bus cannot hold up a stop; the answer comes to `installed`.
        let subscription = BusSupport.matchSignal(bus, sender: Self.sender, path: Self.objectPath, interface: Self.interface,
                                                  member: Self.member, installed: { reply in
            if BusSupport.errorName(reply) != nil {
                context.matchAnswer.withLock { $0 = BusSupport.errorMessage(reply) ?? "no reason given" }
            } else {
                context.logger.info("watching suspend and resume (logind's PrepareForSleep on the system bus)")
                context.matchAnswer.withLock { $0 = "" }
            }
        }) { message in
            // The signature is checked here: anything but one boolean is ignored.
            if let value = BusSupport.read(message, "b", as: Int32.self, zero: 0) { context.onChange(value != 0) }
        }
        guard case .success(let match) = subscription else {
            if case .failure(let failure) = subscription { return .lost("cannot ask for PrepareForSleep: " + failure.reason) }
            return .lost("cannot ask for PrepareForSleep")
        }
        defer { withExtendedLifetime(match) {} }
        var refusal: String?
        let end = BusSupport.dispatch(bus, stop: stop.descriptor) {
            refusal = context.matchAnswer.withLock { $0 }.flatMap { $0.isEmpty ? nil : $0 }
            return refusal != nil
        }
        switch end {
        case .stopped: return .stopped
        case .done: return .refused(refusal ?? "no reason given")
        case .lost(let reason): return .lost(reason)
        case .timedOut: return .stopped  // no deadline was given
        }
    }
}
