import Foundation

/// Polls `condition` every 25 ms until it holds, for at most `seconds`: a
/// guard against a hang, generous because a loaded 2-core machine may take
/// long, never a measurement. On failure it prints what it waited for.
@discardableResult
func eventually(seconds: Double = 60, _ what: @autoclosure () -> String,
                _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { break }
        try? await Task.sleep(for: .milliseconds(25))
    }
    print("waited \(seconds) s in vain for \(what())")
    return false
}

/// Runs `body`, then `cleanup` whether or not it threw: a `defer` cannot await.
func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let value = try await body()
        await cleanup()
        return value
    } catch {
        await cleanup()
        throw error
    }
}
