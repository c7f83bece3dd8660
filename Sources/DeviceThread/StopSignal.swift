#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Syscall

/// Shutdown for a thread that blocks in C (a reader, a camera, a netlink or
/// D-Bus socket): a flag, the abort of the blocking call in progress
/// (`SCardCancel`, `nfc_abort_command`), a descriptor that becomes readable
/// once stopped (for threads that wait in `poll`), and an interruptible sleep
/// for backoff. The only state such a thread shares with async code; stopping
/// is final. (docs/design.md, "Devices and threads")
public final class StopSignal: Sendable {
    private struct State {
        var stopped = false
        var abort: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let pipe = WakePipe()

    /// Readable once stopped: poll it beside the device's own descriptor.
    /// -1 if no pipe could be made (out of descriptors): a sleep then runs
    /// its full time before it sees the stop.
    public var descriptor: Int32 { pipe.descriptor }

    public init() {}

    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops the thread: runs the current abort and makes `descriptor`
    /// readable for good. The abort runs under the lock, so the thread cannot
    /// free the handle it uses meanwhile (it clears the abort first).
    public func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            state.abort?()
            return true
        }
        if first { pipe.wake() }
    }

    /// Installs (or clears, with nil) the abort for the call about to block.
    /// Returns false when already stopped, so the caller does not block.
    @discardableResult
    public func setAbort(_ action: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            state.abort = action
            return !state.stopped
        }
    }

    /// Sleeps up to `seconds`; false when stopped (before or meanwhile).
    public func sleep(_ seconds: Double) -> Bool {
        guard !isStopped else { return false }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // The funnel waits out the whole time across signals; only the stop ends it early.
        _ = Syscall.poll(&request, timeout: Int32(clamping: Int64((max(0, seconds) * 1000).rounded(.up))))
        return !isStopped
    }
}

/// A descriptor one thread makes readable to wake another that waits in
/// `poll` (the stop above; work handed to a D-Bus connection's thread):
/// a pipe, both ends non-blocking and close-on-exec; `drain` empties it.
public final class WakePipe: Sendable {
    /// Readable after `wake()` until drained; -1 if no pipe could be made.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not visible from Swift's Glibc; the flags right after.
        if Glibc.pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Makes `descriptor` readable (a full pipe already is).
    public func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe (on the waiting thread).
    public func drain() {
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while case .success(let count) = buffer.withUnsafeMutableBytes({ Syscall.read(descriptor, into: $0) }), count > 0 {}
    }
}

/// Waiting on an event socket beside the stop (the netlink watchers of the
/// Wi-Fi and wired methods): no timeout, so nothing wakes the thread while
/// the socket is quiet.
extension StopSignal {
    /// Blocks until `descriptor` is readable (true) or the signal stops (false).
    /// With a nil descriptor it waits for the stop alone.
    public func wait(for descriptor: Int32?) -> Bool {
        var fds = [pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            guard case .success = Syscall.poll(&fds, timeout: -1), fds[0].revents == 0 else { return false }
            if fds.count > 1, fds[1].revents & Int16(POLLNVAL) != 0 { return false }
            if fds.count > 1, fds[1].revents != 0 { return true }
        }
    }

    /// Until stopped: waits for `descriptor`, drains everything queued on it
    /// (`receive` reads what is queued and says whether any of it matters;
    /// several messages often arrive together) and calls `changed` once per
    /// burst that mattered. A failed receive (an overrun lost events) counts
    /// as mattering; a socket that only fails would spin, so the ninth
    /// failure in a row is thrown (the adapter's supervisor restarts it).
    public func watchBursts(on descriptor: Int32, receive: () throws -> Bool, changed: () -> Void) throws {
        var failures = 0
        while wait(for: descriptor) {
            var relevant = false
            repeat {
                do {
                    if try receive() { relevant = true }
                    failures = 0
                } catch {
                    relevant = true
                    failures += 1
                    if failures > 8 { throw error }
                }
            } while Self.readable(descriptor)
            if relevant { changed() }
        }
    }

    /// Whether more is queued on `descriptor` right now (no waiting).
    static func readable(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard case .success(let ready) = Syscall.poll(&request, timeout: 0) else { return false }
        return ready > 0 && request.revents & Int16(POLLIN) != 0
    }
}
