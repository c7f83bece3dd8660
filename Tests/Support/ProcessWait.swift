import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Exit statuses of children reaped by `waitForExit`, by process id.
private let reapedLock = NSLock()
nonisolated(unsafe) private var reaped: [Int32: Int32] = [:]

/// One `Process.run()` at a time in this test process.
private let spawnLock = NSLock()

extension Process {
    /// `run()`, one at a time: Foundation's `Process.run()` on Linux crashed
    /// (a `memcpy` on a bad pointer inside it) and failed with EBADF when
    /// parallel tests spawned children at the same moment; serializing the
    /// spawns costs nothing measurable and removes the overlap.
    public func spawn() throws {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        try run()
    }

    /// Waits for the child to end (at most `seconds`, when given); false on
    /// a timeout. Foundation's `waitUntilExit()` and termination handler can
    /// miss an exit when many children come and go at once (the child stays
    /// a zombie and the wait never returns, seen in the parallel tests), so
    /// the child is also reaped here with `waitpid`. Read the status with
    /// `exitStatus`, whoever reaped it.
    @discardableResult
    public func waitForExit(seconds: Double? = nil) -> Bool {
        let pid = processIdentifier
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                // As Foundation reports it: the exit code, or the signal's number.
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
                reapedLock.withLock { reaped[pid] = code }
                return true
            }
            if result < 0 || !isRunning {
                // Foundation reaped it: wait for it to record the status.
                while isRunning { usleep(1_000) }
                return true
            }
            if let deadline, Date() > deadline { return false }
            usleep(5_000)
        }
    }

    /// The exit status after `waitForExit`: the code, or the signal's number.
    public var exitStatus: Int32 {
        reapedLock.withLock { reaped[processIdentifier] } ?? terminationStatus
    }
}
