/// Waits until `condition` holds, checking every 20 ms, for at most
/// `seconds` and at least as many looks as that many seconds hold (3,000
/// for 60 s): a guard against a hang, never a measure. Tests wait this way
/// for the event, log line or state that shows a decision was made, not for
/// time to pass. Counting looks as well as seconds keeps the bound fair on
/// a loaded 2-core machine: while other tests' CPU-bound work holds the
/// test process's threads, the code waited for cannot run either, and
/// neither can this loop, so those seconds do not count against it.
/// Returns whether it held; on a timeout prints what it waited for.
@discardableResult
public func eventually(seconds: Double = 60, _ what: @autoclosure () -> String,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    let looks = Int(seconds * 50)
    var looked = 0
    while true {
        if try await condition() { return true }
        looked += 1
        if ContinuousClock.now >= deadline, looked >= looks { break }
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
