import Foundation

/// The one way a device's thread hands its readings to async code: `body`
/// runs on a thread of its own (blocking C waits never sit on the
/// cooperative pool), named from inside so the kernel thread carries the
/// name (`top -H`, the benchmarks); what it yields comes out of the
/// stream, which finishes when `body` returns; the stream's consumer
/// ending (a cancelled task, a dropped stream) stops the thread through
/// its `StopSignal`.
public enum DeviceStream {
    /// `body` with a `StopSignal` of its own.
    public static func start<Element: Sendable>(
        name: String, buffering: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        _ body: @escaping @Sendable (StopSignal, _ yield: @escaping @Sendable (Element) -> Void) -> Void
    ) -> AsyncStream<Element> {
        let stop = StopSignal()
        return start(name: name, buffering: buffering, stop: { stop.stop() }) { body(stop, $0) }
    }

    /// `body` stopped by `stop` (a watcher with its own stop).
    public static func start<Element: Sendable>(
        name: String, buffering: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        stop: @escaping @Sendable () -> Void,
        _ body: @escaping @Sendable (_ yield: @escaping @Sendable (Element) -> Void) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering)
        continuation.onTermination = { _ in stop() }
        spawn(name) {
            body { continuation.yield($0) }
            continuation.finish()
        }
        return stream
    }

    /// `body` may throw: the stream ends with its error.
    public static func startThrowing<Element: Sendable>(
        name: String,
        _ body: @escaping @Sendable (StopSignal, _ yield: @escaping @Sendable (Element) -> Void) throws -> Void
    ) -> AsyncThrowingStream<Element, Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: Error.self)
        let stop = StopSignal()
        continuation.onTermination = { _ in stop.stop() }
        spawn(name) {
            do {
                try body(stop) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// Runs `body` on a thread of its own and returns what it returns;
    /// cancelling the calling task stops it through `stop`.
    public static func run<T: Sendable>(name: String, stop: StopSignal = StopSignal(),
                                        _ body: @escaping @Sendable (StopSignal) -> T) async -> T {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
                spawn(name) { done.resume(returning: body(stop)) }
            }
        } onCancel: {
            stop.stop()
        }
    }

    /// Starts `body` on a new thread called `name` (at most 15 bytes: the
    /// kernel's limit for the name `top -H` and /proc show).
    public static func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= 15, "a thread name the kernel keeps has at most 15 bytes")
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.start()
    }
}
