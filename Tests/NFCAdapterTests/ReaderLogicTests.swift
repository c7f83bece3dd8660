import Dispatch
import Foundation
import Logging
@testable import NFCAdapter
import Synchronization
import Spawn
import TestSupport
import Testing

/// A scripted pcscd: `SmartCardSystem` with readers and cards that change
/// one step at a time, each time the reader waits in `getStatusChange`
/// with nothing new to report. With the script done it blocks, like pcscd
/// with no change, until `cancel`. It drives `PCSCTagReader`'s own loop
/// (debounce, re-listing, retries, service loss, stop) deterministically;
/// PCSCBenchTests drives the same loop against a real pcscd and vpcd.
final class ScriptedSmartCards: SmartCardSystem, @unchecked Sendable {
    enum Step {
        /// The readers plugged in now.
        case readers([String])
        /// A tag with this UID (and Type 2 memory) on the reader; nil takes it away.
        case tag(String, uid: [UInt8]?, memory: [UInt8] = [])
        /// The next transmit to this reader fails (the tag left mid-read).
        case failNextRead(String, PCSCError)
    }

    struct Calls {
        var contexts = 0
        var released = 0
        var cancels = 0
        var connects = 0
        /// Times the script was done and the reader waited for more.
        var idles = 0
    }

    private struct State {
        var script: [Step]
        var readers: [String] = []
        var listVersion: UInt = 0
        var tags: [String: (uid: [UInt8], memory: [UInt8], presentation: UInt)] = [:]
        var failures: [String: PCSCError] = [:]
        var serviceFailures: Int
        var cancelled = false
        var calls = Calls()
    }

    private let state: Mutex<State>
    /// Blocks the reader's own thread (as pcscd would) until `cancel`.
    private let wake = DispatchSemaphore(value: 0)

    init(_ script: [Step], serviceFailures: Int = 0) {
        state = Mutex(State(script: script, serviceFailures: serviceFailures))
    }

    var calls: Calls { state.withLock { $0.calls } }

    func establishContext() throws(SCardCallError) -> Int {
        let refused: Bool = state.withLock { state in
            if state.serviceFailures > 0 { state.serviceFailures -= 1; return true }
            state.calls.contexts += 1
            state.cancelled = false
            return false
        }
        if refused { throw SCardCallError(call: "SCardEstablishContext", code: .noService) }
        return 1
    }

    func releaseContext(_ context: Int) {
        state.withLock { $0.calls.released += 1 }
    }

    func cancel(_ context: Int) {
        state.withLock { state in
            state.cancelled = true
            state.calls.cancels += 1
        }
        wake.signal()
    }

    func listReaders(_ context: Int) throws(SCardCallError) -> [String] { state.withLock { $0.readers } }

    /// The state pcscd would report for an entry now: for the PnP entry a
    /// counter of reader-list changes, for a reader its card and how many
    /// presentations it has seen (pcsc-lite's event counter, upper 16 bits).
    private static func flags(for reader: String, in state: State) -> ReaderStateFlags {
        if reader == ReaderState.plugAndPlay { return ReaderStateFlags(rawValue: state.listVersion << 16) }
        guard state.readers.contains(reader) else { return [.unknown] }
        guard let tag = state.tags[reader] else { return [.empty] }
        return ReaderStateFlags(rawValue: (tag.presentation << 16) | ReaderStateFlags.present.rawValue)
    }

    func getStatusChange(_ context: Int, timeoutMilliseconds: UInt32, states: inout [ReaderState]) throws(SCardCallError) {
        while true {
            let found: [ReaderState]? = state.withLock { state in
                if state.cancelled { return nil }
                while true {
                    var changed = false
                    var result = states
                    for i in result.indices {
                        let now = Self.flags(for: result[i].reader, in: state)
                        result[i].event = now == result[i].current ? now : now.union(.changed)
                        if now != result[i].current { changed = true }
                    }
                    if changed { return result }
                    guard !state.script.isEmpty else { return [] }
                    Self.apply(state.script.removeFirst(), to: &state)
                }
            }
            guard let found else { throw SCardCallError(call: "SCardGetStatusChange", code: .cancelled) }
            if !found.isEmpty {
                states = found
                return
            }
            state.withLock { $0.calls.idles += 1 }
            wake.wait()
        }
    }

    private static func apply(_ step: Step, to state: inout State) {
        switch step {
        case .readers(let readers):
            state.readers = readers
            state.listVersion += 1
            for gone in Set(state.tags.keys).subtracting(readers) { state.tags[gone] = nil }
        case .tag(let reader, let uid, let memory):
            if let uid {
                let presentation = (state.tags[reader]?.presentation ?? 0) + 1
                state.tags[reader] = (uid, memory, presentation)
            } else {
                state.tags[reader] = nil
            }
        case .failNextRead(let reader, let code):
            state.failures[reader] = code
        }
    }

    func connect(_ context: Int, reader: String) throws(SCardCallError) -> String {
        let present = state.withLock { state in
            state.calls.connects += 1
            return state.tags[reader] != nil
        }
        guard present else { throw SCardCallError(call: "SCardConnect", code: .noSmartcard) }
        return reader
    }

    func control(_ card: String, code: UInt32, _ command: [UInt8]) throws(SCardCallError) -> [UInt8] { [] }

    func transmit(_ card: String, _ apdu: [UInt8]) throws(SCardCallError) -> [UInt8] {
        let outcome: Result<[UInt8], PCSCError> = state.withLock { state in
            if let failure = state.failures.removeValue(forKey: card) { return .failure(failure) }
            guard let tag = state.tags[card] else { return .failure(.removedCard) }
            switch Array(apdu.prefix(2)) {
            case [0xFF, 0xCA]: return .success(tag.uid + [0x90, 0x00])
            case [0xFF, 0xB0]:
                let start = Int(apdu[3]) * 4
                guard start + 16 <= tag.memory.count else { return .success([0x6A, 0x82]) }
                return .success(Array(tag.memory[start..<start + 16]) + [0x90, 0x00])
            default: return .success([0x6D, 0x00])
            }
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let code): throw SCardCallError(call: "SCardTransmit", code: code)
        }
    }

    func disconnect(_ card: String) {}
}

@Suite struct PCSCReaderLogicTests {
    static let first: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3]
    static let second: [UInt8] = [0x04, 0x0D, 0x0E, 0x0F]

    /// Type 2 memory holding one NDEF Text record, "hq": pages 0–2 (UID,
    /// lock bytes), the capability container on page 3, the TLV from page 4.
    static let textTag: [UInt8] = {
        let record: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x71]
        var memory = [UInt8](repeating: 0, count: 12) + [0xE1, 0x10, 0x06, 0x00]
        memory += [0x03, UInt8(record.count)] + record + [0xFE]
        memory += [UInt8](repeating: 0, count: 64 - memory.count)
        return memory
    }()

    /// Runs the reader over `cards` until the script is done and it waits,
    /// then stops it as the agent does (the consumer goes away) and returns
    /// every reading it produced.
    func readings(_ cards: ScriptedSmartCards, wantsNDEF: Bool = false, only: String? = nil) async throws -> [TagReading] {
        let reader = PCSCTagReader(system: cards, logger: Logger(label: "test.pcsc"), only: only)
        let stream = reader.taps { _ in wantsNDEF }
        let collector = Task {
            var all: [TagReading] = []
            for try await reading in stream { all.append(reading) }
            return all
        }
        // An event, not a sleep: the fake counts when it has nothing left to report.
        #expect(await eventually("the reader to come back to wait for changes") { cards.calls.idles > 0 })
        collector.cancel()
        return try await collector.value
    }

    @Test func eachPresentationIsReadOnceAndAHeldTagIsNotReadAgain() async throws {
        let cards = ScriptedSmartCards([
            .readers(["R"]),
            .tag("R", uid: Self.first),
            .readers(["R"]),  // the list is re-read; the held tag is not a new tap
            .tag("R", uid: nil),
            .tag("R", uid: Self.first),
            .tag("R", uid: Self.second),  // swapped without an empty state in between
        ])
        let taps = try await readings(cards)
        #expect(taps.map(\.uid) == [Self.first, Self.first, Self.second])
        #expect(taps.allSatisfy { $0.ndef == .notRead })
        #expect(cards.calls.cancels >= 1, "stopping must interrupt the blocking wait")
        // The consumer is gone at once; the reader thread lets go of pcscd right after.
        #expect(await eventually("the reader thread to let go of pcscd") {
            cards.calls.released > 0 && cards.calls.released == cards.calls.contexts
        })
    }

    @Test func aTagLeftOnAReaderThatIsReplugedIsANewTap() async throws {
        let cards = ScriptedSmartCards([
            .readers(["R"]),
            .tag("R", uid: Self.first),
            .readers([]),
            .readers(["R"]),
            .tag("R", uid: Self.first),
        ])
        #expect(try await readings(cards).map(\.uid) == [Self.first, Self.first])
    }

    @Test func twoReadersEachGiveTheirOwnTap() async throws {
        let cards = ScriptedSmartCards([
            .readers(["A"]),
            .readers(["A", "B"]),
            .tag("B", uid: Self.second),
            .tag("A", uid: Self.first),
        ])
        #expect(try await readings(cards).map(\.uid) == [Self.second, Self.first])
    }

    /// A dual reader (ACR1252U-like) lists a SAM slot beside its contactless
    /// slot: only the contactless one is read; `[nfc] reader` narrows further.
    @Test func samSlotsAreNeverReadAndTheConfiguredReaderAlone() async throws {
        let picc = "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00"
        let sam = "ACS ACR1252 Dual Reader [ACR1252 Dual Reader SAM] 01 00"
        let cards = ScriptedSmartCards([.readers([picc, sam, "Other Reader 02 00"]),
                                        .tag(sam, uid: Self.second), .tag(picc, uid: Self.first),
                                        .tag("Other Reader 02 00", uid: Self.second)])
        #expect(try await readings(cards).map(\.uid) == [Self.first, Self.second])
        let narrowed = ScriptedSmartCards([.readers([picc, sam, "Other Reader 02 00"]),
                                           .tag(sam, uid: Self.second), .tag("Other Reader 02 00", uid: Self.second),
                                           .tag(picc, uid: Self.first)])
        #expect(try await readings(narrowed, only: "acr1252").map(\.uid) == [Self.first])
        #expect(!PCSCTagReader<SCard>.watches(sam, only: nil) && PCSCTagReader<SCard>.watches(picc, only: "ACR1252"))
    }

    @Test func aTagThatLeavesMidReadIsTriedAgain() async throws {
        let cards = ScriptedSmartCards([
            .readers(["R"]),
            .failNextRead("R", .removedCard),
            .tag("R", uid: Self.first),
        ])
        #expect(try await readings(cards).map(\.uid) == [Self.first])
        #expect(cards.calls.connects == 2)
    }

    @Test func theNDEFTextIsReadFromType2Pages() async throws {
        let cards = ScriptedSmartCards([.readers(["R"]), .tag("R", uid: Self.first, memory: Self.textTag)])
        let taps = try await readings(cards, wantsNDEF: true)
        #expect(taps.map(\.ndef) == [.strings(["hq"])])
    }

    @Test func aLostServiceIsRetriedUntilItAnswers() async throws {
        let cards = ScriptedSmartCards([.readers(["R"]), .tag("R", uid: Self.first)], serviceFailures: 2)
        #expect(try await readings(cards).map(\.uid) == [Self.first])
        #expect(cards.calls.contexts == 1)
    }
}

/// A scripted libnfc device for `LibNFCTagReader`: each poll takes the next
/// step; with the script done, a poll blocks (as `nfc_initiator_poll_target`
/// does with no tag) until `abort`. LibNFCBenchTests drives the same loop
/// against the PN532 emulator.
final class ScriptedNFCChip: NFCChipSystem, @unchecked Sendable {
    enum Step {
        /// A tag answers the poll and stays for this many presence checks.
        case tag([UInt8], memory: [UInt8] = [], staysFor: Int = 3)
        /// The poll finds nothing.
        case nothing
        /// The device stops answering (unplugged): the call fails with EIO.
        case lost
    }

    final class Target {
        let uid: [UInt8]
        let memory: [UInt8]
        var checksLeft: Int
        init(uid: [UInt8], memory: [UInt8], checksLeft: Int) {
            self.uid = uid
            self.memory = memory
            self.checksLeft = checksLeft
        }
    }

    private struct State {
        var script: [Step]
        var opens = 0
        var aborted = false
        var idles = 0
    }

    private let state: Mutex<State>
    /// Blocks the reader's own thread (a poll with no tag) until `abort`.
    private let wake = DispatchSemaphore(value: 0)

    init(_ script: [Step]) { state = Mutex(State(script: script)) }

    var opens: Int { state.withLock { $0.opens } }
    /// Times the script was done and the reader polled for more.
    var idles: Int { state.withLock { $0.idles } }

    func makeContext() throws(LibNFCCallError) -> Int { 1 }

    func open(_ context: Int, connstring: String?) throws(LibNFCCallError) -> Int {
        state.withLock { $0.opens += 1 }
        return 1
    }

    func close(_ device: Int) {}

    func abort(_ device: Int) {
        state.withLock { $0.aborted = true }
        wake.signal()
    }

    func pollTypeA(_ device: Int) throws(LibNFCCallError) -> Target? {
        while true {
            let step: Step?? = state.withLock { state in
                if state.aborted { return .some(nil) }
                return state.script.isEmpty ? nil : .some(state.script.removeFirst())
            }
            switch step {
            case .some(.none): throw LibNFCCallError(call: "nfc_initiator_poll_target", code: .operationAborted)
            case .some(.some(.tag(let uid, let memory, let stays))): return Target(uid: uid, memory: memory, checksLeft: stays)
            case .some(.some(.nothing)): return nil
            case .some(.some(.lost)): throw LibNFCCallError(call: "nfc_initiator_poll_target", code: .io)
            case .none:
                state.withLock { $0.idles += 1 }
                wake.wait()
            }
        }
    }

    func uid(of target: Target) -> [UInt8] { target.uid }

    func transceive(_ device: Int, _ bytes: [UInt8], receiveCapacity: Int) throws(LibNFCCallError) -> [UInt8] {
        // The reader sends READ (0x30, page) only; a tag without memory refuses it.
        throw LibNFCCallError(call: "nfc_initiator_transceive_bytes", code: .rfTransmission)
    }

    func isPresent(_ device: Int, _ target: Target) throws(LibNFCCallError) -> Bool {
        target.checksLeft -= 1
        return target.checksLeft >= 0
    }
}

@Suite struct LibNFCReaderLogicTests {
    func readings(_ chip: ScriptedNFCChip) async throws -> [TagReading] {
        var reader = LibNFCTagReader(system: chip, connstring: nil, logger: Logger(label: "test.libnfc"))
        reader.presenceInterval = 0.001
        let stream = reader.taps { _ in false }
        let collector = Task {
            var all: [TagReading] = []
            for try await reading in stream { all.append(reading) }
            return all
        }
        #expect(await eventually("the reader to come back to poll") { chip.idles > 0 })
        collector.cancel()
        return try await collector.value
    }

    @Test func aRestingTagIsOneTapAndTheNextTagAnother() async throws {
        let chip = ScriptedNFCChip([.tag(PCSCReaderLogicTests.first, staysFor: 5), .nothing, .tag(PCSCReaderLogicTests.second)])
        #expect(try await readings(chip).map(\.uid) == [PCSCReaderLogicTests.first, PCSCReaderLogicTests.second])
        #expect(chip.opens == 1)
    }

    @Test func aLostDeviceIsReopenedAndReadsOn() async throws {
        let chip = ScriptedNFCChip([.tag(PCSCReaderLogicTests.first), .lost, .tag(PCSCReaderLogicTests.second)])
        #expect(try await readings(chip).map(\.uid) == [PCSCReaderLogicTests.first, PCSCReaderLogicTests.second])
        #expect(chip.opens == 2)
    }
}

/// The light and buzzer commands per reader (`[nfc] feedback`): the ACR122U's
/// pseudo-APDU (also proven through vpcd, BadgeBenchTests), the ACR1252U's
/// escape commands as its reference manual gives them, nothing for others.
@Suite struct ReaderFeedbackTests {
    @Test func eachReaderGetsItsOwnCommands() {
        #expect(ReaderFeedback.commands(reader: "ACS ACR122U PICC Interface 00 00", accepted: true)
                == [.apdu([0xFF, 0x00, 0x40, 0xA8, 0x04, 0x01, 0x01, 0x01, 0x01])])
        let refused = ReaderFeedback.commands(reader: "ACS ACR1252 1S CL Reader [ACR1252 1S CL Reader(1)] 00 00", accepted: false)
        #expect(refused.filter { $0 == .escape([0xE0, 0x00, 0x00, 0x28, 0x01, 0x0A]) }.count == 2, "two beeps: \(refused)")
        #expect(refused.first == .escape([0xE0, 0x00, 0x00, 0x29, 0x01, 0x01]) && refused.last == .escape([0xE0, 0x00, 0x00, 0x29, 0x01, 0x00]))
        #expect(ReaderFeedback.escapeCode == 0x4200_0DAC)
        #expect(ReaderFeedback.commands(reader: "Identiv uTrust 3700 F CL Reader 00 00", accepted: true).isEmpty)
    }
}
