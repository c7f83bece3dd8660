import Foundation
import Synchronization
import Syscall
import SystemPackage
import Testing
import Spawn
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The funnel's waits against real signals: a thread blocks in `Syscall.poll`
/// on an empty pipe, and the test sends it `SIGUSR2` with `pthread_kill`
/// once the kernel shows it inside poll (`/proc/…/task/TID/syscall`), through
/// a handler installed without `SA_RESTART`, so each signal really ends the
/// system call with `EINTR`.
@Suite(.serialized) struct SyscallTests {
    init() { Interrupter.install() }

    @Test(.enabled(if: PollingThread.kernelShowsPoll, "poll(2)'s number in /proc/…/syscall is written for x86_64 only"))
    func aRetriedWaitOutlastsSignalsAndEndsWhenDataArrives() async throws {
        let poller = try PollingThread(timeout: -1, onSignal: .retry)
        defer { poller.finish() }
        for round in 1...3 {
            #expect(await eventually(seconds: 30, "the thread to wait in poll (round \(round))") { poller.waitingTimeout() != nil })
            let before = Interrupter.caught.load(ordering: .relaxed)
            poller.interrupt()
            #expect(await eventually(seconds: 30, "the handler to run (round \(round))") {
                Interrupter.caught.load(ordering: .relaxed) > before
            })
        }
        // Three signals came and went; the wait is still on and ends only with data.
        #expect(await eventually(seconds: 30, "the thread to wait in poll again") { poller.waitingTimeout() == -1 })
        poller.feed()
        #expect(await eventually(seconds: 30, "the wait to end") { poller.outcome != nil })
        #expect(poller.outcome?.result == .success(1))
        #expect(poller.outcome.map { $0.revents & Int16(POLLIN) != 0 } == true)
    }

    @Test(.enabled(if: PollingThread.kernelShowsPoll, "poll(2)'s number in /proc/…/syscall is written for x86_64 only"))
    func aWaitAskedToReturnReportsTheSignal() async throws {
        let poller = try PollingThread(timeout: -1, onSignal: .return)
        defer { poller.finish() }
        #expect(await eventually(seconds: 30, "the thread to wait in poll") { poller.waitingTimeout() != nil })
        poller.interrupt()
        #expect(await eventually(seconds: 30, "the wait to end") { poller.outcome != nil })
        #expect(poller.outcome?.result == .failure(.interrupted))
        #expect(poller.outcome?.revents == 0)
    }

    /// A poll restarted with its whole timeout after each signal would never
    /// end under a stream of signals: the funnel's retry asks only for the
    /// time left. Each signal is sent once the kernel shows the thread in
    /// poll, and the timeout that poll was given is read there, so nothing
    /// here depends on how fast the machine is: the timeouts seen only
    /// shrink, from the one asked for to less, and data ends the wait.
    @Test(.enabled(if: PollingThread.kernelShowsPoll, "poll(2)'s number in /proc/…/syscall is written for x86_64 only"))
    func aRetriedWaitAsksForTheTimeLeft() async throws {
        let timeout: Int32 = 600_000
        let poller = try PollingThread(timeout: timeout, onSignal: .retry)
        defer { poller.finish() }
        var seen: [Int64] = []
        let shrank = await eventually(seconds: 60, "a retry that asks for less than the whole timeout") {
            guard let waiting = poller.waitingTimeout() else { return false }
            if seen.last != waiting { seen.append(waiting) }
            if waiting < Int64(timeout) { return true }
            // Still the whole timeout (the first poll, or a retry within the same millisecond): another signal.
            poller.interrupt()
            return false
        }
        #expect(shrank, "\(seen)")
        #expect(seen.first == Int64(timeout), "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 >= $1 }, "the time left only shrinks: \(seen)")
        poller.feed()
        #expect(await eventually(seconds: 30, "the wait to end") { poller.outcome != nil })
        #expect(poller.outcome?.result == .success(1))
    }

    /// A wait with a timeout and no data ends once that time has passed (a lower bound only).
    @Test func aWaitEndsWhenItsTimeHasPassed() async throws {
        let poller = try PollingThread(timeout: 50, onSignal: .retry)
        defer { poller.finish() }
        #expect(await eventually(seconds: 30, "the wait to end") { poller.outcome != nil })
        #expect(poller.outcome?.result == .success(0))
        #expect(poller.outcome.map { $0.elapsedMilliseconds >= 50 } == true, "\(String(describing: poller.outcome))")
    }

    @Test func aWaitWithoutTimeLeftReturnsAtOnce() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        var request = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(Syscall.poll(&request, timeout: 0) == .success(0))
        #expect((try? Syscall.writeAll(ends[1], [7])) != nil)
        #expect(Syscall.poll(&request, timeout: 0) == .success(1))
        #expect(request.revents & Int16(POLLIN) != 0)
    }

    @Test func theCallsSwiftSystemDoesNotWrapReportTheirErrors() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syscall-\(getpid()).lock").path
        defer { unlink(path) }
        let first = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600), second = open(path, O_RDWR | O_CLOEXEC)
        defer { close(first); close(second) }
        #expect(Syscall.flock(first, LOCK_EX | LOCK_NB).map { _ in true } == .success(true))
        // Another open file description of the same file: the lock is taken.
        #expect(Syscall.flock(second, LOCK_EX | LOCK_NB).map { _ in true } == .failure(.wouldBlock))
        #expect(Syscall.accept(first) == .failure(.notSocket))
        #expect(Syscall.retrying { close(-1) } == .failure(.badFileDescriptor))
        #expect(Syscall.send(-1, UnsafeRawBufferPointer(start: nil, count: 0), flags: 0) == .failure(.badFileDescriptor))
    }
}

/// `SIGUSR2`'s handler, without `SA_RESTART`: it only counts.
enum Interrupter {
    static let caught = Atomic<Int>(0)

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupter.caught.add(1, ordering: .relaxed) }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        precondition(sigaction(SIGUSR2, &action, nil) == 0)
    }
}

/// A thread that waits once in `Syscall.poll` on the read end of a pipe.
final class PollingThread: Sendable {
    struct Outcome: Sendable, CustomStringConvertible {
        var result: Result<Int, Errno>
        var revents: Int16
        var elapsedMilliseconds: Int64
        var description: String { "\(result), revents \(revents), \(elapsedMilliseconds) ms" }
    }

    private struct State {
        var thread: pthread_t?
        /// /proc/self/task/TID of the thread.
        var task: String?
        var outcome: Outcome?
    }

    private let state = Mutex(State())
    private let readEnd: Int32, writeEnd: Int32
    private let release = DispatchSemaphore(value: 0)

    init(timeout: Int32, onSignal: Syscall.OnSignal) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Errno(rawValue: errno) }
        (readEnd, writeEnd) = (ends[0], ends[1])
        let thread = Thread { [self, readEnd] in
            // The test runner's threads block signals, and a new thread inherits that.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            var link = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/thread-self", &link, link.count - 1)
            let task = length > 0 ? "/proc/" + String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
            state.withLock {
                $0.thread = pthread_self()
                $0.task = task
            }
            var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let start = Self.monotonicMilliseconds()
            let result = Syscall.poll(&request, timeout: timeout, onSignal: onSignal)
            let outcome = Outcome(result: result, revents: request.revents, elapsedMilliseconds: Self.monotonicMilliseconds() - start)
            state.withLock { $0.outcome = outcome }
            // Alive until the test is done with it, so a late `pthread_kill` reaches a thread that exists.
            release.wait()
        }
        thread.start()
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    var outcome: Outcome? { state.withLock { $0.outcome } }

    /// The timeout argument (ms, -1 for none) when the kernel shows the
    /// thread blocked in poll right now; nil otherwise.
    func waitingTimeout() -> Int64? {
        guard let task = state.withLock({ $0.task }), state.withLock({ $0.outcome }) == nil,
              let text = try? String(contentsOfFile: task + "/syscall", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        // x86_64's poll(2) (glibc's poll calls it) is system call 7: number, fds, nfds, timeout.
        guard fields.count > 3, fields[0] == "7",
              let timeout = UInt64(fields[3].dropFirst(2), radix: 16) else { return nil }
        return Int64(Int32(truncatingIfNeeded: timeout))
    }

    func interrupt() {
        guard let thread = state.withLock({ $0.thread }) else { return }
        pthread_kill(thread, SIGUSR2)
    }

    /// Lets the thread end.
    func finish() { release.signal() }

    func feed() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether `waitingTimeout` can read the kernel's view: x86_64's poll(2) is system call 7.
    static var kernelShowsPoll: Bool {
        #if arch(x86_64)
        true
        #else
        false
        #endif
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
