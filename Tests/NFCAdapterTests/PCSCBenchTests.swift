import DeskDaysConfig
import Foundation
import Logging
import NFCAdapter
import Spawn
import TestSupport
import Testing

/// End to end through a real pcscd with the vpcd virtual reader and a
/// virtual Type 2 tag; events go through the real pipeline into a store.
///
/// No test waits for time to pass: each waits for the event, the log line
/// or the card's own count that shows the adapter decided. That an event
/// did not come is shown by the next one: after what must not make an
/// event, another tag is presented, and its event must be the next one
/// (the reader thread reports in order).
@Suite(.tags(.hardwareBench), .serialized, .enabled(if: Tools.pcscBench, Tools.pcscSkipReason), .pcscd)
struct PCSCBenchTests {
    static let rules = [
        NFCSettings.Tag(name: "desk", uid: VirtualTag(uid: VirtualTag.deskUID, area: []).uidHex),
        NFCSettings.Tag(name: "hq", ndef: "deskdays:office:hq"),
    ]
    /// Matches "hq" by its NDEF text alone; "desk" by its UID.
    static let hqTag = VirtualTag.text("deskdays:office:hq", uid: VirtualTag.strangerUID)
    static let deskTag = VirtualTag.text("hello")
    /// What the adapter logs when it saw the card's reader empty (vpcd's second slot, "00 01", is always empty).
    static let emptied = "NFC reader empty reader=Virtual PCD 00 00"

    let daemon = PCSCDaemon.current!

    func adapter(_ tags: [NFCSettings.Tag] = rules) throws -> AdapterRun {
        try AdapterRun(tags: tags) { NFCTagReader.pcsc(logger: $0) }
    }

    /// Takes the card away and waits until the adapter saw its reader empty
    /// (re-armed). Every test ends so: a card put on before pcscd noticed the
    /// last one leave would be a swap between two of its polls, which it
    /// cannot see (it would report the old card still present).
    func remove(_ card: VirtualCard, from run: AdapterRun) async throws {
        let before = run.logs.count(Self.emptied)
        try await card.remove()
        #expect(await run.waitForLog(Self.emptied, after: before))
    }

    /// Removes the card, presents `tag` and expects its event to be the next
    /// one: nothing came in between from what was there before.
    func nextEventIs(_ rule: String, presenting tag: VirtualTag, on card: VirtualCard, _ run: AdapterRun) async throws {
        let before = run.events.count
        try await remove(card, from: run)
        try await card.load(tag)
        try await card.insert()
        #expect(await run.waitForEvents(before + 1))
        #expect(run.rules.dropFirst(before).first == rule, "\(run.rules)")
        try await remove(card, from: run)
    }

    /// What `doctor` asks pcscd: the real reader list, read-only.
    @Test func pcscdListsTheVirtualReaderForDoctor() throws {
        let names = try #require(NFCTagReader.pcscReaderNames(), "pcscd did not answer")
        #expect(names.contains { $0.hasPrefix("Virtual PCD") }, "\(names)")
    }

    @Test func tapStoresOneCheckInWithTheRule() async throws {
        let run = try adapter()
        let card = try await daemon.card(VirtualTag(uid: VirtualTag.deskUID, area: [0x03, 0x00, 0xFE]))
        try await card.insert()
        #expect(await run.waitForEvents(1))
        #expect(try run.storedCheckIns().map(\.rule) == ["desk"])
        try await nextEventIs("hq", presenting: Self.hqTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func ndefTextRuleMatchesAnUnknownUID() async throws {
        let run = try adapter()
        let card = try await daemon.card(Self.hqTag)
        try await card.insert()
        #expect(await run.waitForEvents(1))
        try await nextEventIs("desk", presenting: Self.deskTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["hq", "desk"])
    }

    /// A tag left on the reader while pcscd checks it again and again is one tap.
    @Test func restingTagIsOneTap() async throws {
        let run = try adapter()
        let card = try await daemon.card(Self.deskTag)
        try await card.insert()
        #expect(await run.waitForEvents(1))
        let seen = try await card.polls()
        #expect(try await eventually("pcscd to check the resting card 5 more times") { try await card.polls() >= seen + 5 })
        try await nextEventIs("hq", presenting: Self.hqTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func tapRemoveTapIsTwoTapsAndOneStoredCheckIn() async throws {
        let run = try adapter()
        let card = try await daemon.card(Self.deskTag)
        try await card.insert()
        #expect(await run.waitForEvents(1))
        try await remove(card, from: run)
        try await card.insert()
        #expect(await run.waitForEvents(2))
        #expect(try run.storedCheckIns().count == 1)
        try await nextEventIs("hq", presenting: Self.hqTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk", "desk", "hq"])
    }

    @Test func unknownTagMakesNoEvent() async throws {
        let run = try adapter()
        let card = try await daemon.card(.text("someone else's tag", uid: VirtualTag.strangerUID))
        try await card.insert()
        #expect(await run.waitForLog("unknown tag"))
        #expect(run.events.isEmpty)
        #expect(try run.storedCheckIns().isEmpty)
        try await nextEventIs("desk", presenting: Self.deskTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk"])
    }

    @Test func corruptNDEFAreaStillMatchesByUID() async throws {
        // The NDEF rule comes first, so the pages are read and fail to parse.
        let run = try adapter([Self.rules[1], Self.rules[0]])
        let card = try await daemon.card(.corrupt())
        try await card.insert()
        #expect(await run.waitForEvents(1))
        try await nextEventIs("hq", presenting: Self.hqTag, on: card, run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk", "hq"])
    }

    @Test func pcscdKilledAndRestartedThenTapsWorkAgain() async throws {
        let run = try adapter()
        var card = try await daemon.card(Self.deskTag)
        try await card.insert()
        #expect(await run.waitForEvents(1))
        await card.quit()
        try await daemon.kill()
        #expect(await run.waitForLog("PC/SC service unavailable"))
        try await daemon.start()
        // Back once it reconnected (its backoff may have grown meanwhile); then one tap is seen.
        #expect(await run.waitForLog("PC/SC service is back"))
        card = try await daemon.card(Self.deskTag)
        try await card.insert()
        #expect(await run.waitForEvents(2))
        try await remove(card, from: run)
        await run.stop()
        await card.quit()
        #expect(run.rules == ["desk", "desk"])
        #expect(run.logs.count("PC/SC service unavailable") == 1, "said once: \(run.logs.lines)")
    }
}
