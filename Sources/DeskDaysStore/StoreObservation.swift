import GRDB

/// A subscription to the store's commits; it ends on `cancel()` or when released.
public final class StoreObservation: Sendable {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) {
        self.cancellable = cancellable
    }

    public func cancel() {
        cancellable.cancel()
    }
}

extension AttendanceStore {
    /// Calls `onChange` after every commit that changed records, check-ins, signs or removals
    /// through this store (this process only: SQLite does not signal other
    /// processes' commits). Keep the returned value for as long as you want to be told.
    public func observeChanges(_ onChange: @escaping @Sendable () -> Void) -> StoreObservation {
        let observation = DatabaseRegionObservation(tracking: Table("record"), Table("checkin"), Table("sign"), Table("removal"))
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in onChange() })
        return StoreObservation(cancellable)
    }
}
