import Foundation

/// A row of `sync_op` with its device's id and name: one journal line as
/// the store keeps it, every field as the line has it. What a line means
/// (its change, its checks, its JSON) is DeskDaysSync's (`JournalEntry`);
/// the store keeps, orders and hands back the rows.
public struct SyncOp: Sendable, Equatable {
    public var v: Int
    public var device: String
    public var name: String
    public var seq: Int64
    /// The HLC: wall milliseconds and counter.
    public var hlc: Int64
    public var n: Int64
    /// The writer's own wall clock when it wrote the line (UTC text).
    public var clock: String?
    public var op: String
    public var date: String
    public var source: String?
    public var rule: String?
    public var at: String?
    public var kind: String?
    public var status: String?
    public var origin: String?
    public var note: String?
    public var ifEmpty: Bool?
    public var origins: [String]?
    public var entry: String?
    /// A record's plan mark (`ahead`, `planner`).
    public var plan: String?
    /// The seq of an earlier line of the same device that this one stands for.
    public var replaces: Int64?

    /// Every required field, the optional ones nil.
    public init(v: Int, device: String, name: String, seq: Int64, hlc: Int64, n: Int64, op: String, date: String) {
        self.v = v
        self.device = device
        self.name = name
        self.seq = seq
        self.hlc = hlc
        self.n = n
        self.op = op
        self.date = date
    }
}
