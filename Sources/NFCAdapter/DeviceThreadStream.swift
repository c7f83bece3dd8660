import DeviceThread
import Foundation

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
