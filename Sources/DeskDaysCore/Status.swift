import Localization
import Foundation
/// What a record says about a date (docs/policy.md "Statuses").
public enum AttendanceStatus: String, CaseIterable, Sendable, Codable {
    case office, travel, remote, sick, vacation, leave
}

extension AttendanceStatus {
    /// The words that name each status, in every language DeskDays has a
    /// catalog for (po/: each status's own translation is here): one table
    /// for `--status`, the configuration, the D-Bus `CheckIn` and imports
    /// (CSV, JSON, iCalendar titles); the socket, a machine protocol, takes
    /// the names only (docs/cli.md). Each entry is a whole value, never a
    /// word to look for inside a longer text: "Out of office" and "Office
    /// closed" name no status, and a word names one status only.
    public static let synonyms: [(AttendanceStatus, [String])] = [
        // English (the names first)
        (.office, ["office", "in office", "in the office", "at the office", "onsite", "on site", "on-site", "inoffice"]),
        (.remote, ["remote", "wfh", "work from home", "working from home", "home", "home office", "homeoffice",
                   "home-office", "telework", "teleworking", "remote work"]),
        (.travel, ["travel", "trip", "business trip", "business travel", "travelling", "traveling"]),
        (.sick, ["sick", "ill", "illness", "sick leave", "sick day"]),
        (.vacation, ["vacation", "holiday", "holidays", "pto", "annual leave"]),
        (.leave, ["leave", "parental", "parental leave", "jury", "jury duty", "bereavement", "bereavement leave",
                  "unpaid leave"]),
        // Deutsch
        (.office, ["büro", "im büro"]),
        (.remote, ["mobiles arbeiten", "telearbeit"]),
        (.travel, ["dienstreise", "geschäftsreise"]),
        (.sick, ["krank", "krankheit", "krankmeldung"]),
        (.vacation, ["urlaub"]),
        (.leave, ["freistellung", "elternzeit", "sonderurlaub"]),
        // Français
        (.office, ["bureau", "au bureau", "sur site"]),
        (.remote, ["télétravail"]),
        (.travel, ["déplacement"]),
        (.sick, ["maladie", "arrêt maladie"]),
        (.vacation, ["congés", "congé", "vacances"]),
        (.leave, ["absence", "congé parental"]),
        // Español
        (.office, ["oficina", "en la oficina", "presencial"]),
        (.remote, ["teletrabajo", "remoto"]),
        (.travel, ["viaje", "viaje de trabajo"]),
        (.sick, ["enfermedad", "baja médica"]),
        (.vacation, ["vacaciones"]),
        (.leave, ["permiso"]),
        // Português (Brasil)
        (.office, ["escritório", "no escritório"]),
        (.remote, ["teletrabalho", "trabalho remoto"]),
        (.travel, ["viagem", "viagem a trabalho"]),
        (.sick, ["doente", "doença", "licença médica"]),
        (.vacation, ["férias"]),
        (.leave, ["licença"]),
        // 日本語
        (.office, ["出社", "オフィス"]),
        (.remote, ["リモート", "在宅勤務", "テレワーク"]),
        (.travel, ["出張"]),
        (.sick, ["病欠", "病気"]),
        (.vacation, ["休暇", "有給休暇", "有休"]),
        (.leave, ["休業"]),
        // العربية
        (.office, ["مكتب", "في المكتب"]),
        (.remote, ["عن بُعد", "عن بعد"]),
        (.travel, ["سفر عمل"]),
        (.sick, ["مرض", "إجازة مرضية"]),
        (.vacation, ["إجازة"]),
        (.leave, ["إذن غياب"]),
        // Italiano
        (.office, ["ufficio", "in ufficio", "in sede"]),
        (.remote, ["da remoto", "lavoro agile", "smart working", "telelavoro"]),
        (.travel, ["trasferta"]),
        (.sick, ["malattia"]),
        (.vacation, ["ferie"]),
        (.leave, ["permesso", "permesso retribuito", "congedo"]),
        // Nederlands
        (.office, ["kantoor", "op kantoor"]),
        (.remote, ["thuiswerk", "thuiswerken"]),
        (.travel, ["dienstreis"]),
        (.sick, ["ziek", "ziekte"]),
        (.vacation, ["vakantie"]),
        (.leave, ["verlof"]),
        // Русский
        (.office, ["офис", "в офисе"]),
        (.remote, ["удалённо", "удаленно", "удалёнка", "удаленка"]),
        (.travel, ["командировка"]),
        (.sick, ["больничный"]),
        (.vacation, ["отпуск"]),
        (.leave, ["отгул"]),
        // 한국어
        (.office, ["사무실", "출근"]),
        (.remote, ["재택", "재택근무"]),
        (.travel, ["출장"]),
        (.sick, ["병가"]),
        (.vacation, ["휴가", "연차"]),
        (.leave, ["휴무"]),
        // 简体中文
        (.office, ["办公室", "到岗"]),
        (.remote, ["远程", "居家办公"]),
        (.travel, ["出差"]),
        (.sick, ["病假"]),
        (.vacation, ["休假", "年假"]),
        (.leave, ["事假"]),
    ]

    /// Every accepted value, in the form `key(_:)` gives it. Built once; a
    /// value listed for two statuses stops the program at its first use
    /// (a test reaches it), since it could only be a mistake in the table.
    static let byWord: [String: AttendanceStatus] = {
        var table: [String: AttendanceStatus] = [:]
        for (status, words) in synonyms {
            for word in words {
                let key = key(word)
                precondition(table[key] == nil || table[key] == status, "status word \"\(word)\" is listed twice")
                table[key] = status
            }
        }
        return table
    }()

    /// The form a value is compared in: trimmed, lowercased, every run of
    /// whitespace one space ("  Home\tOffice " is "home office").
    static func key(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The status a whole value names, whatever its case and spacing
    /// ("Office", "WFH", "Home  office", "Urlaub"); nil for anything else,
    /// however close: the caller names the value and refuses or skips it.
    public init?(named text: String) {
        guard let found = Self.byWord[Self.key(text)] else { return nil }
        self = found
    }

    /// The status whose word is nearest a value no word names ("ofice",
    /// "remtoe"): at most two edits away, and at most a third of its
    /// letters; nil when none is that near (a "did you mean" is never a guess).
    public static func closest(to text: String) -> AttendanceStatus? {
        let typed = Array(key(text))
        guard !typed.isEmpty, typed.count <= 40 else { return nil }
        var best: (distance: Int, status: AttendanceStatus)?
        for (word, status) in byWord {
            let distance = editDistance(typed, Array(word))
            if distance <= 2, distance * 3 <= max(typed.count, word.count), distance < (best?.distance ?? .max) {
                best = (distance, status)
            }
        }
        return best?.status
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// How a status counts: numerator and denominator, denominator only, or neither.
public enum Treatment: String, CaseIterable, Sendable, Codable {
    case office, remote, excused

    /// The treatment as human text names it ("office", "entschuldigt").
    public var word: String {
        switch self {
        case .office: AttendanceStatus.office.word
        case .remote: AttendanceStatus.remote.word
        case .excused: tr("excused")
        }
    }
}

/// Where a check-in or record came from. Stored as its raw value; never
/// accompanied by the identifier that triggered it (docs/design.md, privacy).
public enum Source: String, CaseIterable, Sendable, Codable, Comparable {
    case nfc, qr, wifi, gps, wired, external, manual, `import`, fallback
    /// The `[calendar]` folder (never stored).
    case calendar

    /// The sources that produce automatic check-ins (precedence level 2):
    /// the methods, the phone inbox (`external`) and a time clock's arrivals
    /// and departures read by `import` (`import`).
    public static let automatic: [Source] = [.nfc, .qr, .wifi, .gps, .wired, .external, .import]

    public var isAutomatic: Bool { Source.automatic.contains(self) }

    public static func < (lhs: Source, rhs: Source) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which precedence level produced a date's resolved status.
public enum Origin: String, CaseIterable, Sendable, Codable {
    case manual, automatic, `import`, fallback
    /// An event of the `[calendar]` folder: read at each answer, never stored.
    case calendar
}

/// What `deskdays clear --origin` removes from a date: one kind of entry, or all.
public enum ClearScope: String, CaseIterable, Sendable {
    case manual, automatic, `import`, fallback, all

    /// The origins of the entries it removes.
    public var origins: Set<Origin> {
        self == .all ? Set(Origin.allCases).subtracting([.calendar]) : [Origin(rawValue: rawValue)!]
    }
}

extension AttendanceStatus {
    /// The status as human text names it, in the user's language ("office",
    /// "Büro"); JSON, the configuration and what the user types keep `rawValue`.
    public var word: String {
        switch self {
        case .office: tr("office")
        case .travel: tr("travel")
        case .remote: tr("remote")
        case .sick: tr("sick")
        case .vacation: tr("vacation")
        case .leave: tr("leave")
        }
    }
}

extension Origin {
    /// An origin as human text names it ("manual", "manuell").
    public var word: String {
        switch self {
        case .manual: tr("manual")
        case .automatic: tr("automatic")
        case .import: tr("import")
        case .fallback: tr("fallback")
        case .calendar: tr("calendar")
        }
    }
}

extension Source {
    /// A source as a word: the kinds of hardware keep their names (nfc,
    /// qr, wifi, gps, wired); the others are words of the language.
    public var word: String {
        switch self {
        case .manual: tr("manual")
        case .import: tr("import")
        case .fallback: tr("fallback")
        case .calendar: tr("calendar")
        case .external: tr("external")
        case .nfc, .qr, .wifi, .gps, .wired: rawValue
        }
    }
}

/// What `clear` removed, as the database keeps it ("office record", "gps
/// check-in, rule \"hq\"": the words of the sync journal and the socket's
/// `removed` list, the same on every device), in the user's language for
/// `explain`, `clear` and the evidence page; any other text as stored.
public enum RemovedEntry {
    public static func words(_ entry: String) -> String {
        if entry.hasSuffix(" record"), let kept = AttendanceStatus(rawValue: String(entry.dropLast(7))) {
            return tr("\(kept.word) record")
        }
        guard let range = entry.range(of: " check-in"), let kind = Source(rawValue: String(entry[..<range.lowerBound])) else {
            return entry
        }
        let rest = entry[range.upperBound...]
        if rest.isEmpty { return tr("\(kind.word) check-in") }
        let prefix = ", rule \""
        guard rest.hasPrefix(prefix), rest.hasSuffix("\""), rest.count > prefix.count else { return entry }
        return tr("\(kind.word) check-in, rule \"\(rest.dropFirst(prefix.count).dropLast())\"")
    }
}
