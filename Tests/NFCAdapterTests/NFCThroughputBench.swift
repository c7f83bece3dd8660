import DeskDaysConfig
import Foundation
import Synchronization
import NFCAdapter
import Testing

/// Not a test: the "ours" side of bench/nfc.sh, enabled only when the bench
/// sets `DESKDAYS_NFC_BENCH_OUT` (and `PCSCLITE_CSOCK_NAME` to its pcscd).
/// Writes `ready`, then the unix time after each check-in is durably stored.
@Suite struct NFCThroughputBench {
    static let output = ProcessInfo.processInfo.environment["DESKDAYS_NFC_BENCH_OUT"]

    @Test(.enabled(if: output != nil, "run by bench/nfc.sh only"))
    func storeEveryTap() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["DESKDAYS_NFC_BENCH_COUNT"] ?? "") ?? 100
        let path = try #require(Self.output)
        let file = try #require(FileHandle(forWritingAtPath: path))
        let stored = StoredTimes(file: file)
        // One event per day would be deduplicated away: stamp each tap on its own day.
        let day = Counter()
        let run = try AdapterRun(tags: [.init(name: "desk", uid: VirtualTag(uid: VirtualTag.deskUID, area: []).uidHex)],
                                 reader: { NFCTagReader.pcsc(logger: $0) },
                                 now: { Date(timeIntervalSince1970: 86_400 * Double(10_000 + day.next())) },
                                 afterStore: { stored.append() })
        file.write(Data("ready\n".utf8))
        #expect(await run.waitForEvents(count, seconds: Double(count) * 5))
        await run.stop()
    }
}

/// Appends the current unix time, one line per stored check-in.
final class StoredTimes: @unchecked Sendable {
    private let file: FileHandle
    init(file: FileHandle) { self.file = file }
    func append() {
        file.write(Data(String(format: "stored %.6f\n", Date().timeIntervalSince1970).utf8))
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
