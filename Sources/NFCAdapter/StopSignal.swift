import Dispatch
import Foundation

/// Shutdown for a device thread: a flag, the abort of the blocking call in
/// progress (`SCardCancel`, `nfc_abort_command`), and an interruptible sleep
/// for backoff. The only state shared between the thread and async code.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var abort: (@Sendable () -> Void)?
    private let wake = DispatchSemaphore(value: 0)

    var isStopped: Bool { lock.withLock { stopped } }

    /// Stops the loop: runs the current abort and ends any sleep. The abort
    /// runs under the lock, so the thread cannot free the handle it uses
    /// (it clears the abort first, through `setAbort(nil)`).
    func stop() {
        lock.withLock {
            stopped = true
            abort?()
        }
        wake.signal()
    }

    /// Installs (or clears, with nil) the abort for the call about to block.
    /// Returns false when already stopped, so the caller does not block.
    @discardableResult
    func setAbort(_ action: (@Sendable () -> Void)?) -> Bool {
        lock.withLock {
            abort = action
            return !stopped
        }
    }

    /// Sleeps up to `seconds`; false when stopped meanwhile.
    func sleep(_ seconds: Double) -> Bool {
        if isStopped { return false }
        _ = wake.wait(timeout: .now() + seconds)
        return !isStopped
    }
}

/// Runs `body` on its own thread (blocking C waits never sit on the
/// cooperative pool) and hands its readings to async code; ending the
/// stream's consumer stops the thread through its `StopSignal`.
func deviceThreadStream(
    name: String,
    _ body: @escaping @Sendable (StopSignal, @escaping @Sendable (TagReading) -> Void) throws -> Void
) -> AsyncThrowingStream<TagReading, Error> {
    AsyncThrowingStream { continuation in
        let stop = StopSignal()
        continuation.onTermination = { _ in stop.stop() }
        let thread = Thread {
            do {
                try body(stop) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = name
        thread.start()
    }
}
