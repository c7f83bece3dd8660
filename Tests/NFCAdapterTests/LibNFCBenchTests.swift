import DeskDaysConfig
import Foundation
import NFCAdapter
import TestSupport
import Testing

/// End to end through libnfc's pn532_uart driver against the PN532
/// emulator on a pty; events go through the real pipeline into a store.
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: Tools.libnfcBench, Tools.libnfcSkipReason), .pn532)
struct LibNFCBenchTests {
    let emulator = PN532Emulator.current!

    func adapter(_ tags: [NFCSettings.Tag] = PCSCBenchTests.rules) throws -> AdapterRun {
        let connstring = emulator.connstring
        emulator.resetPolling()
        return try AdapterRun(tags: tags) { NFCTagReader.libnfc(connstring: connstring, logger: testLogger) }
    }

    @Test func tapStoresOneCheckInWithTheRule() async throws {
        let run = try adapter()
        try await emulator.tap(.text("hello"))
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        #expect(run.events.map(\.rule) == ["desk"])
        #expect(try run.storedCheckIns().map(\.rule) == ["desk"])
    }

    @Test func ndefTextRuleMatchesAnUnknownUID() async throws {
        let run = try adapter()
        try await emulator.tap(.text("deskdays:office:hq", uid: VirtualTag.strangerUID))
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        #expect(run.events.map(\.rule) == ["hq"])
    }

    @Test func restingTagIsOneTap() async throws {
        let run = try adapter()
        try await emulator.tap(.text("hello"), holding: 2.5)
        await settle()
        await run.stop()
        #expect(run.events.map(\.rule) == ["desk"])
    }

    @Test func tapRemoveTapIsTwoTapsAndOneStoredCheckIn() async throws {
        let run = try adapter()
        try await emulator.tap(.text("hello"))
        #expect(await run.waitForEvents(1))
        try await Task.sleep(for: .seconds(0.5))
        try await emulator.tap(.text("hello"))
        #expect(await run.waitForEvents(2))
        await settle()
        await run.stop()
        #expect(run.events.map(\.rule) == ["desk", "desk"])
        #expect(try run.storedCheckIns().count == 1)
    }

    @Test func unknownTagMakesNoEvent() async throws {
        let run = try adapter()
        try await emulator.tap(.text("someone else's tag", uid: VirtualTag.strangerUID), holding: 1)
        await settle()
        await run.stop()
        #expect(run.events.isEmpty)
        #expect(try run.storedCheckIns().isEmpty)
    }

    @Test func corruptNDEFAreaStillMatchesByUID() async throws {
        let run = try adapter([PCSCBenchTests.rules[1], PCSCBenchTests.rules[0]])
        try await emulator.tap(.corrupt())
        #expect(await run.waitForEvents(1))
        await settle()
        await run.stop()
        #expect(run.events.map(\.rule) == ["desk"])
    }

    @Test func pn532VanishesAndComesBackThenTapsWorkAgain() async throws {
        let run = try adapter()
        try await emulator.tap(.text("hello"))
        #expect(await run.waitForEvents(1))
        emulator.stop()
        try await Task.sleep(for: .seconds(1))
        try emulator.start()
        var seen = false
        for _ in 0..<30 where !seen { // at most a minute: the backoff may have grown while the reader was away
            try await emulator.tap(.text("hello"))
            seen = await run.waitForEvents(2, seconds: 2)
        }
        await run.stop()
        #expect(seen)
        #expect(run.events.map(\.rule) == ["desk", "desk"])
    }
}
