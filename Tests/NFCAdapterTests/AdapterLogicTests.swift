import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NDEF
@testable import NFCAdapter
import Spawn
import TestSupport
import Testing

/// The pure parts of the adapter: matching, debounce, backoff, and the
/// page-reading loop over a fake transport.
@Suite struct AdapterLogicTests {
    static let uid: [UInt8] = [0x04, 0xA2, 0x24, 0x6A, 0x2F, 0x6E, 0x80]

    @Test func uidRuleMatchesWhateverSeparatorsTheConfigUses() {
        let matcher = TagMatcher(tags: [.init(name: "desk", uid: "04:a2:24:6a:2f:6e:80")])
        #expect(matcher.rule(for: TagReading(uid: Self.uid, ndef: .notRead)) == "desk")
        #expect(matcher.rule(for: TagReading(uid: [0x04, 0x00], ndef: .notRead)) == nil)
    }

    @Test func uidRulesComeBeforeNDEFRulesAndSkipThePageReads() {
        let matcher = TagMatcher(tags: [.init(name: "hq", ndef: "deskdays:office:hq"),
                                        .init(name: "desk", uid: "04A2246A2F6E80")])
        #expect(!matcher.needsNDEF(uid: "04A2246A2F6E80"))
        #expect(matcher.needsNDEF(uid: "0411"))
        #expect(matcher.rule(for: TagReading(uid: Self.uid, ndef: .strings(["deskdays:office:hq"]))) == "desk")
        #expect(matcher.rule(for: TagReading(uid: [0x04, 0x11], ndef: .strings(["x", "deskdays:office:hq"]))) == "hq")
        #expect(matcher.rule(for: TagReading(uid: [0x04, 0x11], ndef: .malformed(.notNDEFFormatted))) == nil)
    }

    @Test func withoutNDEFRulesNoPagesAreRead() {
        let matcher = TagMatcher(tags: [.init(name: "desk", uid: "04A2246A2F6E80")])
        #expect(!matcher.needsNDEF(uid: "0411"))
    }

    @Test func oneTapPerPresentationPerReader() {
        var debouncer = TapDebouncer()
        var taps: [Bool] = []
        taps.append(debouncer.present("A"))
        taps.append(debouncer.present("A"))
        taps.append(debouncer.present("B"))
        debouncer.absent("A")
        taps.append(debouncer.present("A"))
        #expect(taps == [true, false, true, true])
    }

    @Test func backoffDoublesToThirtySecondsAndResets() {
        var backoff = Backoff()
        var delays: [Double] = []
        for _ in 0..<8 { delays.append(backoff.next()) }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30])
        backoff.reset()
        #expect(backoff.next() == 0.5)
    }

    /// A tag memory served 16 bytes per page number, counting the reads.
    final class FakeTag {
        var memory: [UInt8]
        var reads: [UInt8] = []
        var refuse = false
        init(area: [UInt8]) {
            memory = Array(repeating: 0, count: 12) + [0xE1, 0x10, 0x12, 0x00] + area
                + Array(repeating: 0, count: 144 - area.count)
        }
        func read(_ page: UInt8) throws -> [UInt8] {
            reads.append(page)
            if refuse { throw Type2Reading.Refused() }
            let start = Int(page) * 4
            return Array(memory[start..<min(start + 16, memory.count)])
                + Array(repeating: 0, count: max(0, start + 16 - memory.count))
        }
    }

    @Test func readsOnlyThePagesTheTLVNeeds() throws {
        let payload = [0x02] + Array("en".utf8) + Array("deskdays:office:hq".utf8)
        let message: [UInt8] = [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
        let tag = FakeTag(area: [0x03, UInt8(message.count)] + message + [0xFE])
        #expect(try Type2Reading.ndef(readPages: tag.read) == .strings(["deskdays:office:hq"]))
        #expect(tag.reads == [3, 7])  // 27 TLV bytes: 12 with the CC page, 16 more
    }

    @Test func pageReadOutcomes() throws {
        #expect(try Type2Reading.ndef(readPages: FakeTag(area: [0x03, 0x00, 0xFE]).read) == .strings([]))
        #expect(try Type2Reading.ndef(readPages: FakeTag(area: [0xFE]).read) == .absent)
        let refusing = FakeTag(area: [])
        refusing.refuse = true
        #expect(try Type2Reading.ndef(readPages: refusing.read) == .unreadable)
        let unformatted = FakeTag(area: [])
        unformatted.memory[12] = 0
        #expect(try Type2Reading.ndef(readPages: unformatted.read) == .absent)
        let corrupt = FakeTag(area: [0x03, 0xFF, 0xFF, 0xFE])
        guard case .malformed = try Type2Reading.ndef(readPages: corrupt.read) else {
            Issue.record("a TLV longer than the tag must be malformed")
            return
        }
    }

    @Test func errorsCarryTheLibrarysOwnText() {
        #expect(PCSCError.removedCard.description == "Card was removed.")
        #expect(PCSCError.removedCard.isCardGone)
        #expect(!PCSCError.noService.isCardGone)
        #expect(SCardCallError(call: "SCardConnect", code: .noSmartcard).description.hasPrefix("SCardConnect: "))
        #expect(LibNFCError.operationAborted.description == "Operation Aborted")
        #expect(LibNFCError.targetReleased.isTagGone)
    }
}

/// Badges as they are: a random UID (4 bytes starting 0x08) never matches a
/// UID rule, and cannot be enrolled by UID.
@Suite struct RandomUIDTests {
    static let random: [UInt8] = [0x08, 0x3A, 0x91, 0x5C]
    static let other: [UInt8] = [0x08, 0x77, 0x01, 0xEE]
    static let sticker: [UInt8] = [0x04, 0xA2, 0x24, 0x6A, 0x2F, 0x6E, 0x80]

    @Test func aRandomUIDIsRecognised() {
        #expect(TagReading(uid: Self.random, ndef: .notRead).hasRandomUID)
        #expect(!TagReading(uid: Self.sticker, ndef: .notRead).hasRandomUID)
        // 0x08 starting a 7-byte UID is a manufacturer byte, not a random ID.
        #expect(!TagReading(uid: [0x08] + Self.sticker.dropFirst(), ndef: .notRead).hasRandomUID)
    }

    @Test func aRandomUIDNeverMatchesAUIDRuleButItsNDEFMay() {
        let matcher = TagMatcher(tags: [.init(name: "badge", uid: "083A915C"), .init(name: "hq", ndef: "deskdays:office:hq")])
        #expect(matcher.rule(for: TagReading(uid: Self.random, ndef: .notRead)) == nil)
        #expect(matcher.needsNDEF(uid: "083A915C"))
        #expect(matcher.rule(for: TagReading(uid: Self.random, ndef: .strings(["deskdays:office:hq"]))) == "hq")
    }

    @Test func enrolmentRefusesRandomAndChangingUIDsInOneSentence() throws {
        let random = TagReading(uid: Self.random, ndef: .notRead)
        let problem = try #require(TagMatcher.enrolmentProblem(first: random, second: random))
        #expect(problem.contains("new number on every tap") && problem.contains("NTAG sticker") && problem.contains("QR code"))
        let changing = TagMatcher.enrolmentProblem(first: TagReading(uid: [0x04, 0x01, 0x02, 0x03], ndef: .notRead),
                                                   second: TagReading(uid: [0x04, 0x09, 0x09, 0x09], ndef: .notRead))
        #expect(changing?.contains("different number on the second tap") == true)
        let sticker = TagReading(uid: Self.sticker, ndef: .notRead)
        #expect(TagMatcher.enrolmentProblem(first: sticker, second: sticker) == nil)
    }

    /// Through the adapter on the scripted reader: random-UID taps store nothing, a sticker does.
    @Test func theAdapterStoresNothingForARandomUIDCard() async throws {
        let cards = ScriptedSmartCards([
            .readers(["R"]),
            .tag("R", uid: Self.random), .tag("R", uid: nil),
            .tag("R", uid: Self.other), .tag("R", uid: nil),
            .tag("R", uid: Self.sticker),
        ])
        var settings = NFCSettings()
        settings.enabled = true
        settings.tags = [.init(name: "badge", uid: "083A915C"), .init(name: "desk", uid: "04A2246A2F6E80")]
        let reader = NFCTagReader(backend: .pcsc, start: PCSCTagReader(system: cards, logger: Logger(label: "test")).taps(wantsNDEF:))
        let adapter = NFCCheckInAdapter(settings: settings, logger: Logger(label: "test"), reader: { reader })
        let events = EventList()
        let run = Task { try await adapter.run { events.append($0.rule ?? "-") } }
        // The sticker is the script's last tag: once its event came, everything before it was decided.
        #expect(await eventually("the reader to finish the script") { cards.calls.idles > 0 })
        #expect(await eventually("the sticker's event") { !events.all.isEmpty })
        run.cancel()
        _ = try? await run.value
        #expect(events.all == ["desk"])
    }
}

/// Rules of the events an adapter emitted, in order.
final class EventList: @unchecked Sendable {
    private let lock = NSLock()
    private var rules: [String] = []
    func append(_ rule: String) { lock.withLock { rules.append(rule) } }
    var all: [String] { lock.withLock { rules } }
}
