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
            // AUTHENTICATE, ASSOCIATE and CONNECT arrive together: one re-read per burst.
            try stopSignal.watchBursts(on: events.fileDescriptor, receive: {
                try events.receive().contains { message in
                    message.type == family && (try? MLMEEvent(message.generic()))?.changesLink == true
                }
            }, changed: { read(reader, report) })
        } catch let error as WiFiUnavailable {
            report(.unavailable(error))
            _ = stopSignal.wait(for: nil)
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
            _ = stopSignal.wait(for: nil)
            return nil
        }
        report(.unavailable(.noNL80211))
        while stopSignal.wait(for: events.fileDescriptor) {
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
}
