/// Waits until `condition` holds, checking every 20 ms, for at most
/// `seconds`: a guard against a hang, never a measure. Tests wait this way
/// for the event, log line or state that shows a decision was made, not for
/// time to pass; the bound is generous because a loaded 2-core machine may
/// take tens of seconds to reopen a pty. Returns whether it held; on a
/// timeout prints what it waited for.
public func eventually(_ what: String, seconds: Double = 60,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { break }
        try? await Task.sleep(for: .milliseconds(20))
    }
    print("waited \(seconds) s for \(what)")
    return false
}
