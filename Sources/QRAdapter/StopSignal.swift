import Dispatch
import Synchronization

/// Shutdown for the camera thread: a flag and an interruptible sleep. The
/// only state shared between that thread and async code.
final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    func stop() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Sleeps up to `seconds`; false when stopped meanwhile.
    func sleep(_ seconds: Double) -> Bool {
        if isStopped { return false }
        _ = wake.wait(timeout: .now() + seconds)
        if isStopped {
            wake.signal()  // keep waking any later sleeper: stop is final
            return false
        }
        return true
    }
}
