import Files
import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One policy for all devices (docs/cli.md "Every device, one rule"): the
/// policy (`Configuration.policyText`: every `[policy*]` key and the
/// holidays) in the sync folder as `policy.json`, versioned and stamped
/// with an HLC time after every version it replaces. The file is input
/// like a journal line: read bounded, checked in one place (`decode`),
/// and a bad one is named in one sentence and not used.
public struct SharedPolicy: Sendable {
    public static let fileName = "policy.json"
    public static let version = 1
    /// A policy with ten years of an .ics file's holidays is some 30 KB.
    public static let maximumBytes = 1 << 20

    /// The device that shared it (its `[sync] device_name`).
    public var name: String
    public var time: HLC
    /// The policy as TOML (`Configuration.policyText`).
    public var text: String
    /// `text` as read: its policy, holidays and their sources.
    public var configuration: Configuration

    /// The day it was shared, in `zone`.
    public func day(in zone: TimeZone) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: time.date)
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!) ?? LocalDate(year: 2000, month: 1, day: 1)!
    }

    public func encoded() -> [UInt8] {
        let object: [String: Any] = ["v": Self.version, "name": name, "hlc": time.wall, "n": time.counter, "policy": text]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// The policy a file holds, or why it is not used. Every check is here:
    /// the size, the format and its version, the clock time (not more than a
    /// day after this machine's clock), the device name, and the policy text
    /// through the configuration's own loader; it may hold nothing but the
    /// policy (`[policy]`, `[[holidays]]`), and no path of the other device's.
    public static func decode(_ bytes: [UInt8], now: ClockTime) -> Result<SharedPolicy, Refusal> {
        guard bytes.count <= maximumBytes else { return .failure(.bad(tr("it is longer than \(maximumBytes) bytes"))) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
              let v = object["v"] as? Int else {
            return .failure(.bad(tr("it is not a DeskDays shared policy")))
        }
        guard v <= version else { return .failure(.newer) }
        guard let name = object["name"] as? String, SyncSettings.isDeviceName(name),
              let wall = (object["hlc"] as? NSNumber).flatMap({ Int64(exactly: $0.doubleValue) }),
              let counter = (object["n"] as? NSNumber).flatMap({ Int64(exactly: $0.doubleValue) }),
              let text = object["policy"] as? String else {
            return .failure(.bad(tr("it is not a DeskDays shared policy")))
        }
        if let problem = Validation.countProblem(counter, from: 0) { return .failure(.bad(tr("its clock counter (n) \(counter): \(problem)"))) }
        if let problem = Validation.timeProblem(milliseconds: wall, now: now) { return .failure(.bad(tr("its clock time (hlc) \(wall): \(problem)"))) }
        let (configuration, problems) = ConfigLoader.parse(text, file: fileName)
        if let first = problems.first { return .failure(.bad(tr("line \(first.line) of its policy: \(first.message)"))) }
        // Only the policy travels: a shared file never turns on a method, sync or another device's file.
        var onlyPolicy = Configuration().usingPolicy(of: configuration)
        onlyPolicy.ownsPolicy = configuration.ownsPolicy
        if configuration != onlyPolicy || !configuration.holidayCalendars.isEmpty {
            return .failure(.bad(tr("it holds more than a policy ([policy] and [[holidays]] without holidays_ics)")))
        }
        return .success(SharedPolicy(name: name, time: HLC(wall: wall, counter: counter), text: text, configuration: configuration))
    }

    /// Why a file is not used.
    public enum Refusal: Error, Sendable, Equatable {
        /// Written by a newer DeskDays: used once this one is updated.
        case newer
        case bad(String)
    }

    /// The policy files of the folder: `policy.json` and synchronisers'
    /// conflict copies of it (`policy.sync-conflict-….json`).
    static func isPolicyFile(_ name: String) -> Bool {
        name == fileName || (name.hasPrefix("policy") && name.hasSuffix(".json") && name.lowercased().contains("conflict"))
    }

    /// The newest policy in `folder` (by clock time, then device name, then
    /// text: every device picks the same), with one sentence for each file
    /// not used. Nil when there is none (or the folder cannot be listed:
    /// the journals' merge says so).
    public static func newest(in folder: String, now: ClockTime) -> (policy: SharedPolicy?, problems: [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(isPolicyFile).sorted()
        var found: [SharedPolicy] = [], problems: [String] = []
        for name in names {
            let path = folder + "/" + name
            let bytes: [UInt8]
            switch Synchronizer.openFile(path) {
            case .absent: continue
            case .unreadable(let reason):
                problems.append(tr("cannot read \(path) (\(reason)); the shared policy is read once it can be"))
                continue
            case .notAFile(let kind):
                problems.append(tr("\(path) is \(kind), not a shared policy; it is not read (remove it)"))
                continue
            case .file(let fd):
                defer { close(fd) }
                var info = stat()
                guard fstat(fd, &info) == 0 else { continue }
                // Bounded: one byte past the limit is enough to refuse it.
                bytes = Synchronizer.readBytes(fd, from: 0, to: min(Int64(info.st_size), Int64(maximumBytes) + 1))
            }
            switch decode(bytes, now: now) {
            case .success(let policy): found.append(policy)
            case .failure(.newer):
                problems.append(tr("\(path) was written by a newer DeskDays; it is skipped until this one is updated"))
            case .failure(.bad(let reason)):
                problems.append(tr("\(path) is not used: \(reason); `deskdays policy share` writes it again from a device's own policy"))
            }
        }
        let newest = found.max { ($0.time, $0.name, $0.text) < ($1.time, $1.name, $1.text) }
        return (newest, problems)
    }

    /// Writes `configuration`'s policy to the folder as shared by `name`,
    /// stamped after `after` (the newest there): atomically, synced to disk.
    public static func write(_ configuration: Configuration, name: String, folder: String, after: SharedPolicy?,
                             clock: ClockTime) throws -> SharedPolicy {
        if let problem = Synchronizer.folderProblem(folder) { throw Synchronizer.SyncFailure(description: problem) }
        let text = configuration.policyText()
        let (parsed, _) = ConfigLoader.parse(text, file: fileName)
        let policy = SharedPolicy(name: name, time: HLC.next(after: after?.time, clock: clock), text: text, configuration: parsed)
        let path = folder + "/" + fileName
        do {
            try AtomicFile.replace(path, with: policy.encoded(), mode: 0o600, durable: true)
        } catch {
            throw Synchronizer.SyncFailure(description: tr("cannot write \(path) (\(AtomicFile.reason(error))); check the sync folder's permissions"))
        }
        return policy
    }
}

/// Which policy a device answers from, with `[sync]` (docs/cli.md "Every
/// device, one rule"). The newest shared policy, unless this device changed
/// its own since it last looked (then it shares its own, which becomes the
/// newest), or it has one and the folder has none yet (then it shares it).
/// What this device last saw of its own policy is kept beside its database
/// (`PolicyMemory`), so "changed" means changed in its configuration.
public struct PolicyAgreement: Sendable {
    /// What this device answers from: its own configuration, the policy the shared one.
    public var configuration: Configuration
    /// The newest shared policy (after this agreement wrote its own, that one).
    public var shared: SharedPolicy?
    /// This device's own `[policy]` differs from the shared one it answers from.
    public var differs = false
    /// This agreement shared this device's policy.
    public var published = false
    /// One sentence for each policy file not used, and a write that failed.
    public var problems: [String] = []

    /// What `status`, `sync status` and the notification say when the
    /// policies differ, the shared one's date written by `writing` (the reader's locale).
    public func notice(writing: (LocalDate) -> String) -> String? {
        guard differs, let shared else { return nil }
        let name = shared.name, day = writing(shared.day(in: configuration.policy.timeZone))
        return tr("This device's policy differs from the one \(name) shared on \(day): `deskdays policy adopt` uses it, `deskdays policy share` shares yours")
    }

    /// Agrees on the policy for `own` (this device's configuration, with
    /// `[sync]` on): reads the folder, and shares `own`'s policy when it is
    /// the newest. `memory` is nil for a process that must not write.
    public static func agree(_ own: Configuration, memory: PolicyMemory?, clock: ClockTime) -> PolicyAgreement {
        var agreement = PolicyAgreement(configuration: own)
        guard let settings = own.sync, settings.sharePolicy else { return agreement }
        let (shared, problems) = SharedPolicy.newest(in: settings.folder, now: clock)
        agreement.problems = problems
        agreement.shared = shared
        let ownText = own.ownsPolicy ? own.policyText() : nil
        let ownDigest = ownText.map(SHA256.hex) ?? "none"
        let seen = memory?.load()
        defer { if let memory, seen?.own != ownDigest { memory.save(PolicyMemory.State(own: ownDigest, told: seen?.told)) } }
        guard let ownText else {
            if let shared { agreement.configuration = own.usingPolicy(of: shared.configuration) }
            return agreement
        }
        if let shared, shared.configuration.policyText() == ownText { return agreement }
        // Changed here since the last look, or the folder has none yet: this one is the newest.
        if shared == nil || (seen != nil && seen?.own != ownDigest) {
            guard let memory else { return agreement }
            do {
                agreement.shared = try SharedPolicy.write(own, name: settings.deviceName, folder: settings.folder, after: shared, clock: clock)
                agreement.published = true
            } catch {
                agreement.problems.append("\(error)")
            }
            return agreement
        }
        agreement.configuration = own.usingPolicy(of: shared!.configuration)
        agreement.differs = true
        return agreement
    }

    /// `deskdays policy share`: `own`'s policy becomes the shared one, whatever the folder holds.
    public static func share(_ own: Configuration, settings: SyncSettings, memory: PolicyMemory, clock: ClockTime) throws -> SharedPolicy {
        let newest = SharedPolicy.newest(in: settings.folder, now: clock).policy
        let policy = try SharedPolicy.write(own, name: settings.deviceName, folder: settings.folder, after: newest, clock: clock)
        memory.save(PolicyMemory.State(own: SHA256.hex(own.policyText()), told: nil))
        return policy
    }
}

/// What this device last saw of its own policy (a digest of its text, or
/// "none") and which difference it last notified, kept beside its database
/// (`NAME-policy.json`; digests only).
public struct PolicyMemory: Sendable {
    public let path: String

    public struct State: Codable, Sendable, Equatable {
        public var own: String
        public var told: String?

        public init(own: String, told: String?) {
            self.own = own
            self.told = told
        }
    }

    public init(databasePath: String) {
        path = databasePath + "-policy.json"
    }

    public func load() -> State? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 4096 else { return nil }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    /// Best effort: without it, the next look takes the policy as unchanged.
    public func save(_ state: State) {
        guard let data = try? JSONEncoder().encode(state) else { return }
        // The database's folder, as the store makes it (0700), when this comes first.
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? AtomicFile.replace(path, with: Array(data), mode: 0o600, durable: false)
    }

    /// Whether the difference `notice` was told already (the notification
    /// is given once); remembers it.
    public func tellOnce(_ agreement: PolicyAgreement) -> Bool {
        guard agreement.differs, let shared = agreement.shared else { return false }
        let key = SHA256.hex(shared.text)
        var state = load() ?? State(own: "none", told: nil)
        guard state.told != key else { return false }
        state.told = key
        save(state)
        return true
    }
}
