import Foundation
import DeviceThread
import Glibc
import NL80211

/// The device thread: reads the links at start, then sleeps in `poll` on
/// the `mlme` multicast socket and re-reads on CONNECT, ROAM and
/// DISCONNECT. `poll` has no timeout, so nothing wakes the thread while the
/// link is quiet; a pipe written by `stop()` ends it. (docs/design.md, habit 10 asks for
/// a finite timeout; here zero idle wake-ups is the requirement, and the
/// pipe makes the wait interruptible without one.)
final class LinkWatcher: @unchecked Sendable {
    private let stopSignal = StopSignal()

    init() throws {
        guard stopSignal.descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
    }

    /// Wakes the thread's `poll`; it returns at once.
    func stop() {
        stopSignal.stop()
    }

    /// Runs on the device thread until `stop()`.
    func run(_ report: @Sendable (LinkUpdate) -> Void) {
        do {
            let requests = try NL80211Socket()
            let events = try NL80211Socket()
            let family = try waitForNL80211(requests: requests, events: events, report: report)
            guard let family else { return }
            try events.membership(requests.groupID(family: NL80211.familyName, group: NL80211.mlmeGroup))
            let reader = LinkReader(socket: requests, family: family)
            read(reader, report)
            var failures = 0
            while wait(for: events.fileDescriptor) {
                var relevant = false
                // Drain everything queued (AUTHENTICATE, ASSOCIATE, CONNECT
                // arrive together) and re-read once.
                repeat {
                    do {
                        for message in try events.receive() where message.type == family {
                            if let event = try? MLMEEvent(message.generic()), event.changesLink { relevant = true }
                        }
                        failures = 0
                    } catch {
                        // An overrun (ENOBUFS) lost events: re-read to be sure.
                        // A socket that only fails would spin: give up, the supervisor restarts us.
                        relevant = true
                        failures += 1
                        if failures > 8 { throw error }
                    }
                } while readable(events.fileDescriptor)
                if relevant { read(reader, report) }
            }
        } catch let error as WiFiUnavailable {
            report(.unavailable(error))
            _ = wait(for: nil)
        } catch {
            report(.readFailed("\(error)"))
        }
    }

    /// Resolves nl80211. When the kernel has none, reports that once and
    /// waits, without waking, for the controller to announce the family
    /// (cfg80211 loading when a Wi-Fi dongle is plugged in). Nil: stopped.
    /// The report is made once the wait is set up, so that "unavailable"
    /// means the thread now only waits (a test can rely on it).
    private func waitForNL80211(requests: NL80211Socket, events: NL80211Socket,
                                report: @Sendable (LinkUpdate) -> Void) throws -> UInt16? {
        do {
            return try requests.resolve(family: NL80211.familyName)
        } catch WiFiUnavailable.noNL80211 {}
        let notify: Int32
        do {
            notify = try requests.groupID(family: "nlctrl", group: "notify")
            try events.membership(notify)
        } catch {
            // No announcements to wait for: wait for shutdown alone.
            report(.unavailable(.noNL80211))
            _ = wait(for: nil)
            return nil
        }
        report(.unavailable(.noNL80211))
        while wait(for: events.fileDescriptor) {
            for message in (try? events.receive()) ?? [] where message.type == GenericNetlinkControl.familyID {
                guard let generic = try? message.generic(), generic.command == GenericNetlinkControl.commandNewFamily,
                      let family = try? ControlFamily(attributes: generic.attributes),
                      family.name == Array(NL80211.familyName.utf8) else { continue }
                try events.membership(notify, join: false)
                return family.id
            }
        }
        return nil
    }

    private func read(_ reader: LinkReader, _ report: @Sendable (LinkUpdate) -> Void) {
        do {
            report(.links(try reader.links()))
        } catch {
            report(.readFailed("\(error)"))
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
