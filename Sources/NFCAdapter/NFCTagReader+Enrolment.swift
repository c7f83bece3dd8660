import Synchronization

/// What `deskdays enroll nfc` asks of the reader.
extension NFCTagReader {
    /// The first `count` taps (fewer after `timeout` seconds); `between`
    /// runs after the first. A random UID ends the wait at once (no second
    /// tap needed to refuse it). Leaving the stream aborts the reader.
    public func firstTaps(_ count: Int, within timeout: Double, between: @escaping @Sendable () -> Void) async throws -> [TagReading] {
        try await withThrowingTaskGroup(of: [TagReading]?.self) { group in
            let collected = TapList()
            group.addTask {
                for try await reading in taps(wantsNDEF: { _ in true }) {
                    let all = collected.append(reading)
                    if all.count == 1, count > 1, !reading.hasRandomUID { between() }
                    if all.count >= count || reading.hasRandomUID { return all }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first ?? collected.all
        }
    }
}

/// The taps seen so far, shared by the reading task and the timeout.
private final class TapList: Sendable {
    private let taps = Mutex<[TagReading]>([])

    func append(_ reading: TagReading) -> [TagReading] {
        taps.withLock {
            $0.append(reading)
            return $0
        }
    }

    var all: [TagReading] { taps.withLock { $0 } }
}
