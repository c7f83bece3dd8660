import DeskDaysConfig
import DeskDaysCore
import Foundation
import GPSAdapter
import NMEA
import Synchronization
import Spawn
import TestSupport
import Testing

@Suite(.serialized, .enabled(if: Tools.has("socat"), "socat not installed: apt-get install socat"))
struct DeviceLossTests {
    static func capture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// The receiver is unplugged mid-stream and comes back under a new pty,
    /// reached through a udev-style symlink: the reader reopens it and goes on.
    @Test func removedAndRecreatedMidStream() async throws {
        let bytes = try DeviceLossTests.capture("motorola-t805.log")
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
        let half = lines.count / 2
        let receiver = try SimulatedReceiver()
        let symlink = receiver.directory.appendingPathComponent("gps0").path
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: receiver.device)
        try await receiver.start()
        let events = EventLog()
        let task = NMEASerialReader.forTests(symlink).start(into: events)
        try #require(await events.wait("the reader to open the pty") { $0.count(.connected) == 1 })
        receiver.write(Array(lines[..<half].joined()))
        let firstHalf = await events.wait("5 fixes from the first half") { $0.fixes.count >= 5 }
        #expect(firstHalf)

        await receiver.stop()
        #expect(await events.wait("the reader to report the unplug") { $0.count(.disconnected) == 1 })
        let beforeReturn = events.fixes.count
        try await receiver.start()
        try #require(await events.wait("the reader to reopen the new pty") { $0.count(.connected) >= 2 })
        receiver.write(Array(lines[half...].joined()) + cycleCloser)
        let lastTime = UTCTime(hour: 21, minute: 26, second: 32)
        let resumed = await events.wait("the capture's last fix (21:26:32)") { $0.fixes.contains { $0.time == lastTime } }
        task.cancel()
        await receiver.stop()
        #expect(resumed)
        #expect(events.fixes.count > beforeReturn)
        let kinds = events.all.compactMap { event -> String? in
            switch event {
            case .connected: "connected"
            case .disconnected: "disconnected"
            case .fix: nil
            }
        }
        #expect(kinds.prefix(3) == ["connected", "disconnected", "connected"])
    }

    /// A device that is not there yet is retried quietly until it appears.
    @Test func deviceAppearsLater() async throws {
        let receiver = try SimulatedReceiver()
        let events = EventLog()
        let logs = LogCapture()
        let task = NMEASerialReader.forTests(receiver.device, logger: logs.logger).start(into: events)
        // Its first attempt failed once it says so; nothing can connect before the device exists.
        #expect(await eventually("the reader to log that the receiver is unavailable") { logs.count("unavailable") == 1 })
        #expect(events.count(.connected) == 0)
        try await receiver.start()
        try #require(await events.wait("the reader to open the pty") { $0.count(.connected) == 1 })
        task.cancel()
        await receiver.stop()
        #expect(logs.count("unavailable") == 1, "said once, not at every retry: \(logs.lines)")
        #expect(logs.count("is back") == 1, "\(logs.lines)")
    }

    /// The adapter over a replayed capture: one check-in named after the
    /// fence, once the dwell is complete in receiver time.
    @Test func adapterChecksInOnce() async throws {
        let bytes = try DeviceLossTests.capture("motorola-t805.log")
        let receiver = try SimulatedReceiver()
        try await receiver.start()
        var settings = GPSSettings()
        settings.enabled = true
        settings.device = receiver.device
        settings.geofences = [.init(name: "hq", latitude: 48.6657, longitude: 2.2484, radiusM: 150, dwellS: 10)]
        let events = EventLog()
        let checkIns = Mutex<[CheckInEvent]>([])
        let adapter = GPSAdapter(settings: settings, backoff: Backoff(initialSeconds: 0.05, maximumSeconds: 0.2),
                                 observe: { events.append($0) })
        let task = Task {
            try await adapter.run { event in checkIns.withLock { $0.append(event) } }
        }
        try #require(await events.wait("the adapter to open the pty") { $0.count(.connected) == 1 })
        var expected = 0
        var decoder = NMEAStreamDecoder()
        decoder.feed(bytes + cycleCloser) { _ in expected += 1 }
        receiver.write(bytes + cycleCloser)
        let count = expected
        #expect(await events.wait("\(count) fixes from the pty") { $0.fixes.count >= count })
        task.cancel()
        await receiver.stop()
        let received = checkIns.withLock { $0 }
        #expect(received.count == 1)
        #expect(received.first?.rule == "hq")
        #expect(received.first?.source == .gps)
    }

    /// `enroll gps` without the command line: average a replayed capture and
    /// write the block the configuration loader reads back.
    @Test func enrollAveragesAndWritesTheConfig() async throws {
        let bytes = try DeviceLossTests.capture("motorola-t805.log")
        let receiver = try SimulatedReceiver()
        try await receiver.start()
        try GPSEnrollment.checkDevice(path: receiver.device, baud: 9600)
        // The capture is written once the averaging reader has the pty open.
        let events = EventLog()
        let writer = Task.detached {
            if await events.wait("the averaging reader to open the pty", until: { $0.count(.connected) == 1 }) {
                receiver.write(bytes + cycleCloser)
            }
        }
        let source = Observed(source: NMEASerialReader.forTests(receiver.device), log: events)
        let result = await GPSEnrollment.average(fixes: source, seconds: 5, deadline: 300)
        _ = await writer.value
        await receiver.stop()
        let averaged = try #require(result)
        #expect(averaged.fixes >= 5)
        #expect(averaged.spanSeconds >= 5)
        #expect(abs(averaged.latitude - 48.665685) < 1e-3) // within ~100 m: the capture wanders
        #expect(abs(averaged.longitude - 2.248442) < 1e-3)

        let config = receiver.directory.appendingPathComponent("config.toml").path
        try "[gps]\nenabled = true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let block = GPSEnrollment.geofenceBlock(name: "office", latitude: averaged.latitude,
                                                longitude: averaged.longitude, radiusM: 150, dwellS: 120,
                                                quote: ConfigEditor.quoted)
        try ConfigEditor.appendBlock(block, to: config)
        let loaded = try ConfigLoader.load(path: config)
        #expect(loaded.gps.enabled)
        let fence = try #require(loaded.gps.geofences.last)
        #expect(fence.name == "office")
        #expect(abs(fence.latitude - averaged.latitude) < 1e-6)
        #expect(fence.radiusM == 150)
    }

    @Test func missingDeviceIsAClearError() {
        #expect(throws: SerialError.self) { try GPSEnrollment.checkDevice(path: "/nonexistent/gps", baud: 9600) }
        #expect(throws: SerialError.self) { try GPSEnrollment.checkDevice(path: "/dev/null", baud: 1234) }
    }
}
