import Foundation
import GRDB
import Synchronization

/// A write asked for by a client that may also do it itself (docs/design.md
/// "Once or not at all"): `deskdays checkin` asks the agent and, when the
/// agent does not answer in time, writes directly. Both carry the client's
/// request id, and the first transaction of either that commits records it
/// (`AttendanceStore.write`): the other finds it taken and writes nothing,
/// so a request is carried out once or not at all, whichever is late.
public final class WriteRequest: Sendable {
    /// The request the writes of the current task carry out, if any.
    @TaskLocal public static var current: WriteRequest?

    public let id: String
    /// Whether a transaction of this request committed its id: later
    /// writes of the same request (a journal published after its record) go on.
    let claimed = Mutex(false)

    public init(id: String) {
        self.id = id
    }

    /// How long a request id is kept: far longer than any client waits.
    static let kept: TimeInterval = 7 * 86_400

    /// Records this request's id in `db`'s transaction, or throws
    /// `StoreError.alreadyDone` when a transaction of the other writer did.
    func claim(_ db: Database, path: String) throws {
        guard !claimed.withLock({ $0 }) else { return }
        let now = Date()
        try db.execute(sql: "DELETE FROM request WHERE at < ?", arguments: [now.addingTimeInterval(-Self.kept).timeIntervalSince1970])
        try db.execute(sql: "INSERT INTO request (id, at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                       arguments: [id, now.timeIntervalSince1970])
        guard db.changesCount == 1 else { throw StoreError.alreadyDone(path: path) }
        claimed.withLock { $0 = true }
    }
}
