@testable import DeskDaysAgent
import Foundation
import SystemBus
import Testing

/// The pieces of suspend/resume handling that need no bus: which bus
/// addresses are accepted, and the resume signal the adapters and timers wait on.
struct SleepWatcherTests {
    @Test(arguments: [
        ("unix:path=/run/dbus/system_bus_socket", true),
        ("unix:abstract=/tmp/dbus-x,guid=0123", true),
        ("unix:path=/a;unix:path=/b", true),
        ("tcp:host=127.0.0.1,port=1", false),
        ("unix:path=/a;tcp:host=example.org,port=1", false),
        ("unixexec:path=/bin/sh", false),
        ("nonce-tcp:host=localhost", false),
        ("", false),
    ])
    func onlyUnixSocketAddressesAreUsed(address: String, accepted: Bool) {
        #expect(BusSupport.isUnixOnly(address) == accepted)
    }

    @Test func withoutTheVariableTheStandardSocketIsUsed() {
        #expect(SleepWatcher(environment: [:], logger: .init(label: "test")).address == BusSupport.defaultSystemAddress)
        #expect(SleepWatcher(environment: ["DBUS_SYSTEM_BUS_ADDRESS": ""], logger: .init(label: "test")).address
                == BusSupport.defaultSystemAddress)
    }

    @Test func noDeadlineWaitsForeverAndAPassedOneNotAtAll() {
        #expect(BusSupport.pollTimeout(until: .max) == -1)
        #expect(BusSupport.pollTimeout(until: 0) == 0)
    }

    @Test func aResumeWakesEveryWaiter() async {
        let signal = ResumeSignal()
        let seen = signal.generation
        // A waiter that registers before the resume is woken by it; one that comes after returns at once.
        let waiters = (0..<3).map { _ in Task { await signal.wait(after: seen) } }
        signal.fire()
        for waiter in waiters { await waiter.value }
        #expect(signal.generation == seen + 1)
    }

    @Test func aResumeThatCameBeforeTheWaitIsNotLost() async {
        let signal = ResumeSignal()
        let seen = signal.generation
        signal.fire()
        // Returns at once: the count already moved past `seen`.
        await signal.wait(after: seen)
        #expect(signal.generation == seen + 1)
    }

    @Test func cancellingAWaiterEndsItsWait() async {
        let signal = ResumeSignal()
        let waiter = Task { await signal.wait(after: signal.generation) }
        waiter.cancel()
        await waiter.value
        #expect(signal.generation == 0, "ended by cancellation, not by a resume")
    }
}
