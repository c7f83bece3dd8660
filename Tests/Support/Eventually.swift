/// Waits until `condition` holds, checking every 20 ms, for at most
/// `seconds`: a guard against a hang, never a measure. Tests wait this way
/// for the event, log line or state that shows a decision was made, not for
/// time to pass; the bound is generous because a loaded 2-core machine may
/// take tens of seconds to reopen a pty. Returns whether it held; on a
/// timeout prints what it waited for.
@discardableResult
public func eventually(seconds: Double = 60, _ what: @autoclosure () -> String,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { break }
        try? await Task.sleep(for: .milliseconds(20))
    }
    print("waited \(seconds) s in vain for \(what())")
    return false
}

/// Runs `body`, then `cleanup` whether or not it threw: a `defer` cannot await.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let value = try await body()
        await cleanup()
        return value
    } catch {
        await cleanup()
        throw error
    }
}
