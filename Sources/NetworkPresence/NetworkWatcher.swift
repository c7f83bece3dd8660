import DeviceThread
import Foundation

/// What a network method's device thread reports to its adapter.
public enum NetworkUpdate<Snapshot: Sendable>: Sendable {
    /// The method's state, read just now (at start, and after each burst of
    /// events that can change it).
    case snapshot(Snapshot)
    /// The method cannot work here (sent once; the thread then waits).
    case unavailable(String)
    /// A re-read failed; the previous state stands until the next event.
    case readFailed(String)
}

/// An error meaning the method cannot work on this machine at all
/// (netlink refused, no nl80211): reported once, then the thread waits
/// without waking until it is stopped.
public protocol NetworkUnavailable: Error, CustomStringConvertible {}

/// The device thread the Wi-Fi and wired methods share: the method opens
/// its netlink sockets (listening before its first read, so nothing that
/// changes meanwhile is missed), then the thread reads a snapshot, sleeps
/// in `poll` on the event socket and reads again once per burst of events
/// that can change the snapshot. `poll` has no timeout: nothing wakes the
/// thread while the network is quiet, and it never asks the network
/// anything. `stop()` writes the `StopSignal`'s pipe. (docs/design.md,
/// habit 10 asks for a finite timeout; zero idle wake-ups is the
/// requirement here, and the pipe makes the wait interruptible without one.)
public final class NetworkWatcher<Snapshot: Sendable>: Sendable {
    /// A method's open sockets, as the thread uses them.
    public struct Source {
        /// The descriptor the thread sleeps on.
        public var events: Int32
        /// Receives what is pending on `events`: whether any of it can change the snapshot.
        public var changes: () throws -> Bool
        /// Reads the snapshot now.
        public var read: () throws -> Snapshot

        public init(events: Int32, changes: @escaping () throws -> Bool, read: @escaping () throws -> Snapshot) {
            self.events = events
            self.changes = changes
            self.read = read
        }
    }

    /// Ends the thread's waits; the method's `open` may wait on it too.
    public let stopSignal = StopSignal()

    public init() throws {
        guard stopSignal.descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
    }

    /// Wakes the thread's `poll`; it returns at once.
    public func stop() {
        stopSignal.stop()
    }

    /// Runs on the device thread until `stop()`. `open` sets the method up;
    /// it may report and wait on `stopSignal` for the method to appear (nil:
    /// stopped meanwhile). A `NetworkUnavailable` error is reported once and
    /// the thread then waits for the stop.
    public func run(_ report: @escaping @Sendable (NetworkUpdate<Snapshot>) -> Void,
                    open: (StopSignal, _ report: @Sendable (NetworkUpdate<Snapshot>) -> Void) throws -> Source?) {
        do {
            guard let source = try open(stopSignal, report) else { return }
            read(source, report)
            try stopSignal.watchBursts(on: source.events, receive: source.changes, changed: { read(source, report) })
        } catch let error as NetworkUnavailable {
            report(.unavailable(error.description))
            _ = stopSignal.wait(for: nil)
        } catch {
            report(.readFailed("\(error)"))
        }
    }

    private func read(_ source: Source, _ report: @Sendable (NetworkUpdate<Snapshot>) -> Void) {
        do {
            report(.snapshot(try source.read()))
        } catch {
            report(.readFailed("\(error)"))
        }
    }
}
