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
            var failures = 0
            while wait(for: events.fileDescriptor) {
                var relevant = false
                // Drain what is queued (a link coming up brings several
                // messages at once) and re-read once.
                repeat {
                    do {
                        for object in try events.receive() where snapshot.isChanged(by: object) { relevant = true }
                        failures = 0
                    } catch {
                        // An overrun lost events: re-read to be sure. A socket
                        // that only fails would spin: give up, the supervisor restarts us.
                        relevant = true
                        failures += 1
                        if failures > 8 { throw error }
                    }
                } while readable(events.fileDescriptor)
                if relevant, let fresh = read(requests, report) { snapshot = fresh }
            }
        } catch let error as WiredUnavailable {
            report(.unavailable(error))
            _ = wait(for: nil)
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

    /// Blocks until `descriptor` is readable (true) or `stop()` (false).
    /// With a nil descriptor it waits for `stop()` alone.
    private func wait(for descriptor: Int32?) -> Bool {
        var fds = [pollfd(fd: stopSignal.descriptor, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let result = poll(&fds, nfds_t(fds.count), -1)
            if result < 0 && errno == EINTR { continue }
            if result < 0 || fds[0].revents != 0 { return false }
            if fds.count > 1, fds[1].revents & Int16(POLLNVAL) != 0 { return false }
            if fds.count > 1, fds[1].revents != 0 { return true }
        }
    }

    /// Whether more is queued on `descriptor` right now (no waiting).
    private func readable(_ descriptor: Int32) -> Bool {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0 && fds[0].revents & Int16(POLLIN) != 0
    }
}
