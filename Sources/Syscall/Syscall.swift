import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The system calls DeskDays makes itself (not through a C library's own
/// loop), in one place, and the only place that handles `EINTR`:
/// reads and writes through swift-system's `FileDescriptor` (which retries a
/// call a signal interrupted; `writeAll` goes on after a short write),
/// and the calls swift-system does not wrap (`poll`, `accept`, `flock`,
/// `send`, `recv`, and `retrying` for a call made through a C library, such
/// as libv4l2's `ioctl`). Foundation-free: the static launcher links it.
/// The one atomic replace of a file is `AtomicFile` (DeskDaysCore), on top.
///
/// A signal (`SIGHUP` for a reload, `SIGTERM`, a debugger's) interrupts a
/// blocking call in any thread that has not blocked it. Every call here
/// retries by default. A `poll` with a timeout is retried with the time
/// that is left, not restarted, so a stream of signals cannot make it wait
/// longer than asked. Two sites ask `poll` to return instead
/// (`.interrupted`), because their callers check their stop flag after each
/// wait and are written to treat a wake-up without data as "look again":
/// the GPS serial reader (`SerialPort.read` answers `.interrupted`) and the
/// V4L2 camera (`withLatestFrame` answers nil, no frame this time).
public enum Syscall {
    // MARK: - Reads and writes (swift-system)

    /// Reads what is there into `buffer`: the byte count (0 at the end),
    /// or the error (`EAGAIN` on a non-blocking descriptor with nothing to read).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        result { try FileDescriptor(rawValue: fd).read(into: buffer) }
    }

    /// Reads at `offset` without moving the file position (`pread`).
    public static func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        result { try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: offset, into: buffer) }
    }

    /// swift-system throws `Errno` only; its functions are declared untyped.
    private static func result(_ call: () throws -> Int) -> Result<Int, Errno> {
        do {
            return .success(try call())
        } catch let error as Errno {
            return .failure(error)
        } catch {
            return .failure(.ioError)
        }
    }

    /// Writes all of `bytes`, or throws the error that stopped it.
    public static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) throws(Errno) {
        // swift-system's `write` (which retries after EINTR) until all is
        // written; not its generic `writeAll`, whose unspecialised code costs
        // the launcher a scan of the program's conformances on first use.
        let all = Array(bytes)
        var written = 0
        while written < all.count {
            let wrote = all.withUnsafeBytes { buffer in
                result { try FileDescriptor(rawValue: fd).write(UnsafeRawBufferPointer(rebasing: buffer[written...])) }
            }
            switch wrote {
            case .success(let count): written += count
            case .failure(let error): throw error
            }
        }
    }

    // MARK: - What swift-system does not wrap

    /// What a signal that interrupts a wait does.
    public enum OnSignal: Sendable {
        /// Wait again, for the time that is left.
        case retry
        /// Return `.failure(.interrupted)` at once.
        case `return`
    }

    /// `poll(2)`: the number of descriptors with events (0 when the time
    /// ran out), or the error. `timeout` in milliseconds, negative for none.
    public static func poll(_ fds: inout [pollfd], timeout: Int32, onSignal: OnSignal = .retry) -> Result<Int, Errno> {
        let deadline = timeout > 0 ? monotonicNanoseconds() + UInt64(timeout) * 1_000_000 : 0
        var wait = timeout
        while true {
            let ready = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), wait) }
            if ready >= 0 { return .success(Int(ready)) }
            let error = Errno(rawValue: errno)
            guard error == .interrupted, onSignal == .retry else { return .failure(error) }
            if timeout > 0 { wait = millisecondsLeft(until: deadline) }
        }
    }

    /// `poll(2)` on one descriptor (see the other).
    public static func poll(_ fd: inout pollfd, timeout: Int32, onSignal: OnSignal = .retry) -> Result<Int, Errno> {
        var fds = [fd]
        defer { fd = fds[0] }
        return poll(&fds, timeout: timeout, onSignal: onSignal)
    }

    /// `accept(2)` without the peer's address: the new descriptor, or the
    /// error (`EAGAIN`, `ECONNABORTED` when the peer left first, `EMFILE`).
    public static func accept(_ fd: Int32) -> Result<Int32, Errno> {
        retrying { Glibc.accept(fd, nil, nil) }
    }

    /// `flock(2)`: takes (or, with `LOCK_UN`, releases) the lock `operation` names.
    public static func flock(_ fd: Int32, _ operation: Int32) -> Result<Void, Errno> {
        retrying { systemFlock(fd, operation) }.map { _ in }
    }

    /// `send(2)` from `bytes` with `flags`: the byte count, or the error.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// `recv(2)` into `buffer` with `flags`: the byte count (0: the peer closed), or the error.
    public static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        retrying { Glibc.recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// Calls `call` (a system call, or a C library's wrapper of one such as
    /// libv4l2's `v4l2_ioctl`, that returns -1 and sets `errno`) again while a
    /// signal interrupts it: its result, or the error.
    public static func retrying<Value: FixedWidthInteger & SignedInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value != -1 { return .success(value) }
            let error = Errno(rawValue: errno)
            if error != .interrupted { return .failure(error) }
        }
    }

    // MARK: - The clock of a retried wait

    /// `CLOCK_MONOTONIC` (the clock `poll` measures its timeout on), in ns.
    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Whole milliseconds until `deadline`, rounded up (0 once it passed), so
    /// a retried wait never ends before the time asked for.
    private static func millisecondsLeft(until deadline: UInt64) -> Int32 {
        let now = monotonicNanoseconds()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}

/// glibc's `flock` function: `Glibc.flock` names its struct, and inside
/// `Syscall` the plain name is `Syscall.flock`.
private func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
