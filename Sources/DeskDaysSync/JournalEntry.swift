import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation

/// A journal line (JSON, one per line, keys sorted): the change, who wrote
/// it, its sequence number on that device and its clock time. Only what
/// the database itself may hold: dates, statuses, sources, rule names,
/// notes and times (docs/design.md "Privacy"). Its fields are the store's
/// row (`SyncOp`); what they mean (the change, the checks at the door, the
/// JSON) is here. A line with a greater `v` than `version` is from a newer
/// DeskDays, and its file is skipped with a warning; `replaces` names an
/// earlier line of the same device that this one stands for: the same
/// change, stamped again after that device's clock was found to have run
/// ahead (docs/design.md "Sync", `correctClock`).
public typealias JournalEntry = SyncOp

extension SyncOp: Codable {
    enum CodingKeys: String, CodingKey {
        case v, device, name, seq, hlc, n, clock, op, date, source, rule, at, kind, status, origin, note, ifEmpty, origins, entry, plan,
             replaces
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(v: try c.decode(Int.self, forKey: .v), device: try c.decode(String.self, forKey: .device),
                  name: try c.decode(String.self, forKey: .name), seq: try c.decode(Int64.self, forKey: .seq),
                  hlc: try c.decode(Int64.self, forKey: .hlc), n: try c.decode(Int64.self, forKey: .n),
                  op: try c.decode(String.self, forKey: .op), date: try c.decode(String.self, forKey: .date))
        clock = try c.decodeIfPresent(String.self, forKey: .clock)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        rule = try c.decodeIfPresent(String.self, forKey: .rule)
        at = try c.decodeIfPresent(String.self, forKey: .at)
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        status = try c.decodeIfPresent(String.self, forKey: .status)
        origin = try c.decodeIfPresent(String.self, forKey: .origin)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        ifEmpty = try c.decodeIfPresent(Bool.self, forKey: .ifEmpty)
        origins = try c.decodeIfPresent([String].self, forKey: .origins)
        entry = try c.decodeIfPresent(String.self, forKey: .entry)
        plan = try c.decodeIfPresent(String.self, forKey: .plan)
        replaces = try c.decodeIfPresent(Int64.self, forKey: .replaces)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(v, forKey: .v)
        try c.encode(device, forKey: .device)
        try c.encode(name, forKey: .name)
        try c.encode(seq, forKey: .seq)
        try c.encode(hlc, forKey: .hlc)
        try c.encode(n, forKey: .n)
        try c.encodeIfPresent(clock, forKey: .clock)
        try c.encode(op, forKey: .op)
        try c.encode(date, forKey: .date)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encodeIfPresent(rule, forKey: .rule)
        try c.encodeIfPresent(at, forKey: .at)
        try c.encodeIfPresent(kind, forKey: .kind)
        try c.encodeIfPresent(status, forKey: .status)
        try c.encodeIfPresent(origin, forKey: .origin)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encodeIfPresent(ifEmpty, forKey: .ifEmpty)
        try c.encodeIfPresent(origins, forKey: .origins)
        try c.encodeIfPresent(entry, forKey: .entry)
        try c.encodeIfPresent(plan, forKey: .plan)
        try c.encodeIfPresent(replaces, forKey: .replaces)
    }
}

extension SyncOp {
    /// The format this build writes.
    public static let version = 1

    public var time: HLC { HLC(wall: hlc, counter: n) }

    /// The line without its newline.
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Decodes one line; nil when it is not a journal line. A line of
    /// `device` (the id its file names) shares that string's storage.
    public static func decode(_ line: some DataProtocol, device: String? = nil) -> JournalEntry? {
        if let slice = line as? ArraySlice<UInt8>, let entry = fastDecode(slice, device: device) { return entry }
        let data = Data(line)
        return try? JSONDecoder().decode(JournalEntry.self, from: data)
    }

    public init(device: String, name: String, seq: Int64, time: HLC, clock: Date?, change: JournalChange, replaces: Int64? = nil) {
        self.init(v: Self.version, device: device, name: name, seq: seq, hlc: time.wall, n: time.counter, op: "",
                  date: change.date.description)
        self.replaces = replaces
        self.clock = clock.map(UTCTimestamp.string(from:))
        switch change {
        case .sign(let sign, let rule):
            op = "sign"
            source = sign.source.rawValue
            self.rule = rule
            at = UTCTimestamp.string(from: sign.at)
            kind = sign.kind.rawValue
        case .record(_, let status, let origin, let note, let ifEmpty, let plan):
            op = "record"
            self.status = status.rawValue
            self.origin = origin.rawValue
            self.note = note
            self.ifEmpty = ifEmpty ? true : nil
            self.plan = plan?.rawValue
        case .checkIn(let checkIn):
            op = "checkin"
            source = checkIn.source.rawValue
            rule = checkIn.rule
            at = UTCTimestamp.string(from: checkIn.at)
        case .clear(_, let origins):
            op = "clear"
            self.origins = origins.map(\.rawValue).sorted()
        case .removed(_, let origin, let entry):
            op = "removed"
            self.origin = origin.rawValue
            self.entry = entry
        }
    }

    /// Why this line is refused (its file is in the sync folder, where
    /// anyone who can write is taken for one of the user's devices), or nil:
    /// each value is checked by the rule its door has (`Validation`), so a
    /// line can neither store what a flag or an import could not, nor move
    /// this device's clock more than a day ahead of `now`, nor bring a
    /// number that arithmetic on it could overflow.
    public func problem(now: ClockTime) -> String? {
        if let problem = Validation.countProblem(seq, from: 1) { return tr("its seq \(seq): \(problem)") }
        if let problem = Validation.countProblem(n, from: 0) { return tr("its clock counter (n) \(n): \(problem)") }
        if let problem = Validation.timeProblem(milliseconds: hlc, now: now) { return tr("its clock time (hlc) \(hlc): \(problem)") }
        if let replaces, Validation.countProblem(replaces, from: 1) != nil || replaces >= seq {
            return tr("it replaces line \(replaces), which is not an earlier line of its device")
        }
        if let clock {
            guard let time = UTCTimestamp.date(from: clock) else { return tr("its clock is not a time") }
            if let problem = Validation.timeProblem(time, now: now) { return tr("its clock \(clock): \(problem)") }
        }
        guard let day = LocalDate(date) else { return tr("its date is not a date") }
        guard day.isSupported else { return tr("its date \(date) is \(LocalDate.unsupportedPhrase)") }
        guard let change else {
            return tr("it names an operation, status, origin, source or kind this DeskDays does not know")
        }
        let (at, rule): (Date?, String?) = switch change {
        case .sign(let sign, let rule): (sign.at, rule)
        case .checkIn(let checkIn): (checkIn.at, checkIn.rule)
        default: (nil, nil)
        }
        if let rule, let problem = RuleName.problem(rule) { return tr("its rule: \(problem)") }
        if let at, let problem = Validation.signProblem(at, date: day) ?? Validation.timeProblem(at, now: now) {
            return tr("its time \(self.at ?? ""): \(problem)")
        }
        return nil
    }

    /// When a line refused only because one of its times is more than a
    /// day after `now` (its writer's clock ahead of this machine's, or this
    /// one's behind: a laptop that boots before NTP) becomes acceptable:
    /// such a line is held, never skipped (docs/cli.md "Sync"). Nil for a
    /// line accepted now, and for one no clock will ever accept (the same
    /// rules, `problem`, as of the end of time).
    public func heldUntil(now: ClockTime) -> Date? {
        guard problem(now: now) != nil, problem(now: ClockTime(reading: .distantFuture)) == nil else { return nil }
        let times = [Date(timeIntervalSince1970: Double(hlc) / 1000)]
            + [clock, at].compactMap { $0.flatMap(UTCTimestamp.date(from:)) }
        return times.max()!.addingTimeInterval(-Validation.furthestAhead)
    }

    /// Whether `other` is this line, whoever holds it: the same change at
    /// the same seq and clock (the device name may have changed since, and
    /// a line moved to another identity keeps everything but its `device`).
    public func isSameLine(as other: JournalEntry) -> Bool {
        var copy = other
        copy.device = device
        copy.name = name
        return copy == self
    }

    /// The identity of a branch of device `device`'s journal: the lines
    /// that one copy of its database wrote from `first` on, while another
    /// copy wrote other lines under the same numbers (a database copied to
    /// another machine, found out by the copy that lost the synchroniser's
    /// conflict). A function of the two alone, so that the copy that moves
    /// its lines there and every device that reads them from a conflict
    /// copy name the same device: 32 hex digits (FNV-1a, 128 bits: two
    /// 64-bit halves with different bases; not a secret, an identity).
    public static func branchID(of device: String, from first: JournalEntry) -> String {
        var line = first
        line.device = device
        line.name = ""
        return fnv128(device + "\n" + line.encoded())
    }

    /// FNV-1a of `text`'s UTF-8, 128 bits as 32 hex digits: two 64-bit
    /// halves with different bases (an identity, not a secret).
    public static func fnv128(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func fnv(_ basis: UInt64) -> String {
            var hash = basis
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
            let text = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return fnv(0xcbf29ce484222325) + fnv(0x84222325cbf29ce4)
    }

    /// The change this line carries; nil when it names something this build
    /// does not know (a newer source or status): such a line is refused at
    /// the door (`problem`), and one kept before that is not applied.
    public var change: JournalChange? {
        guard let day = LocalDate(date) else { return nil }
        switch op {
        case "sign":
            guard let source = source.flatMap(Source.init(rawValue:)), source.isAutomatic,
                  let at = at.flatMap(UTCTimestamp.date(from:)),
                  let kind = kind.flatMap(CheckInEvent.Kind.init(rawValue:)) else { return nil }
            return .sign(LatestSign(date: day, source: source, at: at, kind: kind), rule: rule)
        case "checkin":
            guard let source = source.flatMap(Source.init(rawValue:)), source.isAutomatic,
                  let at = at.flatMap(UTCTimestamp.date(from:)) else { return nil }
            return .checkIn(AutomaticCheckIn(date: day, source: source, rule: rule, at: at))
        case "record":
            guard let status = status.flatMap(AttendanceStatus.init(rawValue:)),
                  let origin = origin.flatMap(Origin.init(rawValue:)), origin != .automatic else { return nil }
            // A plan is a manual office or remote record; any other mark is not ours.
            let mark = plan.flatMap(DayRecord.Plan.init(rawValue:))
            if plan != nil, mark == nil || origin != .manual || (status != .office && status != .remote) { return nil }
            return .record(date: day, status: status, origin: origin, note: note, ifEmpty: ifEmpty ?? false, plan: mark)
        case "clear":
            let list = (origins ?? []).compactMap(Origin.init(rawValue:))
            guard !list.isEmpty, list.count == origins?.count else { return nil }
            return .clear(date: day, origins: Set(list))
        case "removed":
            guard let origin = origin.flatMap(Origin.init(rawValue:)), let entry else { return nil }
            return .removed(date: day, origin: origin, entry: entry)
        default:
            return nil
        }
    }
}

// MARK: - A fast reader for the lines DeskDays writes

extension SyncOp {
    /// Reads a flat JSON object of strings, integers, booleans, nulls and
    /// arrays of strings (what DeskDays writes) without Foundation's
    /// decoder, which costs ten times more on a ten-year journal. Anything
    /// else (a nested object, a fraction, a key of the wrong type) is nil,
    /// and the caller falls back to `JSONDecoder`, which decides.
    static func fastDecode(_ line: ArraySlice<UInt8>, device: String? = nil) -> JournalEntry? {
        line.withUnsafeBufferPointer { fastDecode($0, device: device) }
    }

    private static func fastDecode(_ line: UnsafeBufferPointer<UInt8>, device known: String?) -> JournalEntry? {
        var reader = FlatJSON(bytes: line)
        var entry = JournalEntry(v: 0, device: "", name: "", seq: 0, hlc: 0, n: 0, op: "", date: "")
        // A bit per key, and how many keys came: a key given twice is not
        // ours (JSONDecoder decides which one counts).
        var seen = 0, keys = 0
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if reader.take(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let key = reader.key(), reader.take(UInt8(ascii: ":")) else { return nil }
            keys += 1
            switch key {
            case .v: guard let value = reader.integer() else { return nil }; entry.v = Int(value); seen |= 1
            case .device: guard let value = reader.string(known: known) else { return nil }; entry.device = value; seen |= 2
            case .name: guard let value = reader.string() else { return nil }; entry.name = value; seen |= 4
            case .seq: guard let value = reader.integer() else { return nil }; entry.seq = value; seen |= 8
            case .hlc: guard let value = reader.integer() else { return nil }; entry.hlc = value; seen |= 16
            case .n: guard let value = reader.integer() else { return nil }; entry.n = value; seen |= 32
            case .op: guard let value = reader.string() else { return nil }; entry.op = value; seen |= 64
            case .date: guard let value = reader.string() else { return nil }; entry.date = value; seen |= 128
            case .clock: guard let value = reader.optionalString() else { return nil }; entry.clock = value; seen |= 256
            case .source: guard let value = reader.optionalString() else { return nil }; entry.source = value; seen |= 512
            case .rule: guard let value = reader.optionalString() else { return nil }; entry.rule = value; seen |= 1024
            case .at: guard let value = reader.optionalString() else { return nil }; entry.at = value; seen |= 2048
            case .kind: guard let value = reader.optionalString() else { return nil }; entry.kind = value; seen |= 4096
            case .status: guard let value = reader.optionalString() else { return nil }; entry.status = value; seen |= 8192
            case .origin: guard let value = reader.optionalString() else { return nil }; entry.origin = value; seen |= 16384
            case .note: guard let value = reader.optionalString() else { return nil }; entry.note = value; seen |= 32768
            case .entry: guard let value = reader.optionalString() else { return nil }; entry.entry = value; seen |= 65536
            case .ifEmpty: guard let value = reader.optionalBool() else { return nil }; entry.ifEmpty = value; seen |= 131072
            case .origins: guard let value = reader.optionalStrings() else { return nil }; entry.origins = value; seen |= 262144
            case .plan: guard let value = reader.optionalString() else { return nil }; entry.plan = value; seen |= 524288
            case .replaces: guard let value = reader.optionalInteger() else { return nil }; entry.replaces = value; seen |= 1048576
            }
        } while reader.take(UInt8(ascii: ","))
        guard reader.take(UInt8(ascii: "}")), reader.atEnd, seen & 255 == 255, seen.nonzeroBitCount == keys else { return nil }
        return entry
    }
}

/// A cursor over one line of flat JSON (see `JournalEntry.fastDecode`),
/// in place: every read checks `index` against the end first.
private struct FlatJSON {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var atEnd: Bool {
        mutating get { skipSpace(); return index == bytes.endIndex }
    }

    mutating func skipSpace() {
        while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func integer() -> Int64? {
        skipSpace()
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        let start = index
        var value: Int64 = 0
        while index < bytes.endIndex, (48...57).contains(bytes[index]) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[index] - 48))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        guard index > start else { return nil }
        // A fraction or an exponent is not ours: let the full decoder decide.
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            return nil
        }
        return negative ? -value : value
    }

    /// A string; `known` itself when the bytes are its own (no new storage).
    mutating func string(known: String? = nil) -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var plain = true
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] < 0x20 { return nil }
            if bytes[index] == UInt8(ascii: "\\") { plain = false; index += 1 }
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        if plain {
            let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if var known, known.withUTF8({ $0.count == text.count && memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) {
                return known
            }
            return String(decoding: text, as: UTF8.self)
        }
        // Escapes: rare (a note with a quote); Foundation reads them.
        let quoted = Array(bytes[(start - 1)...index])
        return try? JSONDecoder().decode(String.self, from: Data(quoted))
    }

    /// A key of a journal line, matched as bytes (making a string of each
    /// key costs more than the rest of the line); nil for any other key.
    mutating func key() -> SyncOp.CodingKeys? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
            // An escape is never in a key of ours.
            guard bytes[index] != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        let count = index - start
        index += 1
        guard count > 0 else { return nil }
        // The one key it can be, by its length and first letters; then
        // every byte compared (a loop over all of them costs a fifth of
        // decoding a line).
        let first = bytes[start], second = count > 1 ? bytes[start + 1] : 0
        let candidate: SyncOp.CodingKeys?
        switch (count, first) {
        case (1, UInt8(ascii: "v")): candidate = .v
        case (1, UInt8(ascii: "n")): candidate = .n
        case (2, UInt8(ascii: "a")): candidate = .at
        case (2, UInt8(ascii: "o")): candidate = .op
        case (3, UInt8(ascii: "s")): candidate = .seq
        case (3, UInt8(ascii: "h")): candidate = .hlc
        case (4, UInt8(ascii: "n")): candidate = second == UInt8(ascii: "a") ? .name : .note
        case (4, UInt8(ascii: "d")): candidate = .date
        case (4, UInt8(ascii: "r")): candidate = .rule
        case (4, UInt8(ascii: "k")): candidate = .kind
        case (4, UInt8(ascii: "p")): candidate = .plan
        case (5, UInt8(ascii: "c")): candidate = .clock
        case (5, UInt8(ascii: "e")): candidate = .entry
        case (6, UInt8(ascii: "d")): candidate = .device
        case (6, UInt8(ascii: "s")): candidate = second == UInt8(ascii: "o") ? .source : .status
        case (6, UInt8(ascii: "o")): candidate = .origin
        case (7, UInt8(ascii: "i")): candidate = .ifEmpty
        case (7, UInt8(ascii: "o")): candidate = .origins
        case (8, UInt8(ascii: "r")): candidate = .replaces
        default: candidate = nil
        }
        guard let candidate else { return nil }
        var text = candidate.rawValue
        let same = text.withUTF8 { name in
            name.count == count && memcmp(name.baseAddress!, bytes.baseAddress! + start, count) == 0
        }
        return same ? candidate : nil
    }

    mutating func optionalInteger() -> Int64?? {
        if literal("null") { return .some(nil) }
        return integer().map { .some($0) }
    }

    mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { .some($0) }
    }

    mutating func optionalBool() -> Bool?? {
        if literal("null") { return .some(nil) }
        if literal("true") { return .some(true) }
        if literal("false") { return .some(false) }
        return nil
    }

    mutating func optionalStrings() -> [String]?? {
        if literal("null") { return .some(nil) }
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        if take(UInt8(ascii: "]")) { return .some(values) }
        repeat {
            guard let value = string() else { return nil }
            values.append(value)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        return .some(values)
    }
}
