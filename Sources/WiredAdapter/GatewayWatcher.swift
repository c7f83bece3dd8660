import DeviceThread
import Foundation
import Glibc
import Wired

/// What the device thread reports to the adapter.
enum WiredUpdate: Sendable {
    /// The routing state, read just now (at start, and after each event that can change the gateways).
    case snapshot(RouteSnapshot)
    /// The method cannot work here (sent once; the thread then waits).
    case unavailable(WiredUnavailable)
    /// A re-read failed; the previous state stands until the next event.
    case readFailed(String)
}

/// The device thread: joins rtnetlink's link, neighbour and route groups,
/// reads links, routes and neighbours, then sleeps in `poll` on the event
/// socket and re-reads only after an event that can change a default
/// gateway (`RouteSnapshot.isChanged(by:)`). `poll` has no timeout: nothing
/// wakes the thread while the network is quiet, and it never asks the
/// network anything (a gateway not resolved yet is waited for, as the
/// kernel's RTM_NEWNEIGH). `stop()` writes the StopSignal's pipe.
/// (docs/design.md, habit 10 asks for a finite timeout; zero idle wake-ups
/// is the requirement here, as for Wi-Fi.)
final class GatewayWatcher: @unchecked Sendable {
    private let stopSignal = StopSignal()

    init() throws {
        guard stopSignal.descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
    }

    /// Wakes the thread's `poll`; it returns at once.
    func stop() {
        stopSignal.stop()
    }

    /// Runs on the device thread until `stop()`.
    func run(_ report: @Sendable (WiredUpdate) -> Void) {
        do {
            // Listening before the first read: nothing that changes meanwhile is missed.
            let events = try RouteSocket()
            try events.listen()
            let requests = try RouteSocket()
            var snapshot = read(requests, report) ?? RouteSnapshot()
            // A link coming up brings several messages at once: one re-read per burst.
            try stopSignal.watchBursts(on: events.fileDescriptor, receive: {
                try events.receive().contains { snapshot.isChanged(by: $0) }
            }, changed: {
                if let fresh = read(requests, report) { snapshot = fresh }
            })
        } catch let error as WiredUnavailable {
            report(.unavailable(error))
            _ = stopSignal.wait(for: nil)
        } catch {
            report(.readFailed("\(error)"))
        }
    }

    private func read(_ socket: RouteSocket, _ report: @Sendable (WiredUpdate) -> Void) -> RouteSnapshot? {
        do {
            let snapshot = try socket.snapshot()
            report(.snapshot(snapshot))
            return snapshot
        } catch {
            report(.readFailed("\(error)"))
            return nil
        }
    }
}
