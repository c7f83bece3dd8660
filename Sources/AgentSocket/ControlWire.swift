/// One control-socket message on the wire: a flat JSON object on one line
/// (docs/cli.md, "The control socket"), written and read here without
/// Foundation, so that the launcher, the CLI and the agent share one codec.
///
/// Only the fields the protocol defines (`ControlMessage.Field`) are kept;
/// any other key is skipped, whatever its value. Values are strings,
/// numbers, booleans, null and arrays of strings; a nested object or any
/// other array is kept as `.other` ("the wrong type" for every field).
/// Reading is one pass over the bytes with bounded nesting: any input gives
/// an object or one `WireError`, never a crash.
public struct WireObject: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case string(String)
        /// A JSON number, as written (`Int(_:)` or `Double(_:)` read it).
        case number(String)
        case bool(Bool)
        case null
        case strings([String])
        /// A nested object, or an array that is not all strings.
        case other
    }

    /// One slot per field, in `Field.allCases` order (nil: absent). An
    /// array, not a dictionary keyed by the field: the launcher answers in
    /// about a millisecond, and a dictionary with its own key type costs the
    /// Swift runtime a scan of every protocol conformance in the program on
    /// first use (docs/performance.md, "Status and reports").
    private var slots: [Value?]

    public init() {
        slots = Array(repeating: nil, count: Self.fields.count)
    }

    /// `WireObject([.ok: .bool(true), ...])`; a field named twice keeps its last value.
    public init(_ values: KeyValuePairs<ControlMessage.Field, Value>) {
        self.init()
        for (field, value) in values { self[field] = value }
    }

    private static let fields = ControlMessage.Field.allCases
    /// The fields in the order `line()` writes them: by name.
    private static let byName = fields.sorted { $0.rawValue < $1.rawValue }

    public subscript(_ field: ControlMessage.Field) -> Value? {
        get { slots[Self.fields.firstIndex(of: field)!] }
        set { slots[Self.fields.firstIndex(of: field)!] = newValue }
    }

    /// The field's string; nil when absent, null or not a string.
    public func string(_ field: ControlMessage.Field) -> String? {
        if case .string(let text)? = self[field] { return text }
        return nil
    }

    /// The field's boolean; nil when absent or not a boolean.
    public func bool(_ field: ControlMessage.Field) -> Bool? {
        if case .bool(let value)? = self[field] { return value }
        return nil
    }

    /// The field's integer; nil when absent or not an integer.
    public func int(_ field: ControlMessage.Field) -> Int? {
        if case .number(let text)? = self[field] { return Int(text) }
        return nil
    }

    /// The field's number; nil when absent or not a number.
    public func double(_ field: ControlMessage.Field) -> Double? {
        if case .number(let text)? = self[field] { return Double(text) }
        return nil
    }

    /// The field's array of strings; nil when absent or not one.
    public func strings(_ field: ControlMessage.Field) -> [String]? {
        if case .strings(let list)? = self[field] { return list }
        return nil
    }

    /// Whether the field is there with a value other than null.
    public func has(_ field: ControlMessage.Field) -> Bool {
        guard let value = self[field] else { return false }
        return value != .null
    }

    // MARK: - Writing

    /// The object as one line with its newline; keys sorted, so equal objects are equal bytes.
    public func line() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for field in Self.byName {
            guard let value = self[field] else { continue }
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            Self.write(field.rawValue, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .string(let text): Self.write(text, to: &out)
            case .number(let text): out += text.utf8
            case .bool(let value): out += (value ? "true" : "false").utf8
            case .null, .other: out += "null".utf8
            case .strings(let list):
                out.append(UInt8(ascii: "["))
                for (position, text) in list.enumerated() {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    Self.write(text, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out += "}\n".utf8
        return out
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func write(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Reading

    /// Why a line is not a message (English, for the log; the reply's sentence is the caller's).
    public enum WireError: Error, Equatable, Sendable {
        case notAnObject
        case tooDeep
        case malformed
    }

    /// Deeper nesting than any message needs is refused (what is nested is skipped anyway).
    public static let maximumNesting = 8

    /// Reads one line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) -> Result<WireObject, WireError> {
        var reader = Reader(bytes: Array(line))
        return reader.object()
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func object() -> Result<WireObject, WireError> {
            skipSpace()
            guard peek == UInt8(ascii: "{") else { return .failure(.notAnObject) }
            do throws(WireError) {
                var result = WireObject()
                try members(depth: 1) { key, value in
                    if let field = ControlMessage.Field(rawValue: key) { result[field] = value }
                }
                skipSpace()
                guard at == bytes.count else { return .failure(.malformed) }
                return .success(result)
            } catch {
                return .failure(error)
            }
        }

        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(WireError) {
            skipSpace()
            guard peek == byte else { throw .malformed }
            at += 1
        }

        /// An object's members, from its `{`, each handed to `member`.
        mutating func members(depth: Int, _ member: (String, Value) -> Void) throws(WireError) {
            guard depth <= WireObject.maximumNesting else { throw .tooDeep }
            try expect(UInt8(ascii: "{"))
            skipSpace()
            if peek == UInt8(ascii: "}") {
                at += 1
                return
            }
            while true {
                skipSpace()
                let key = try string()
                try expect(UInt8(ascii: ":"))
                member(key, try value(depth: depth))
                skipSpace()
                guard let byte = peek else { throw .malformed }
                at += 1
                if byte == UInt8(ascii: "}") { return }
                guard byte == UInt8(ascii: ",") else { throw .malformed }
            }
        }

        mutating func value(depth: Int) throws(WireError) -> Value {
            skipSpace()
            guard let byte = peek else { throw .malformed }
            switch byte {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"):
                try members(depth: depth + 1) { _, _ in }
                return .other
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func array(depth: Int) throws(WireError) -> Value {
            guard depth <= WireObject.maximumNesting else { throw .tooDeep }
            try expect(UInt8(ascii: "["))
            var list: [String]? = []
            skipSpace()
            if peek == UInt8(ascii: "]") {
                at += 1
                return .strings([])
            }
            while true {
                if case .string(let text) = try value(depth: depth) { list?.append(text) } else { list = nil }
                skipSpace()
                guard let byte = peek else { throw .malformed }
                at += 1
                if byte == UInt8(ascii: "]") { return list.map(Value.strings) ?? .other }
                guard byte == UInt8(ascii: ",") else { throw .malformed }
            }
        }

        mutating func word(_ text: StaticString) throws(WireError) {
            let count = text.utf8CodeUnitCount
            guard bytes.count - at >= count,
                  text.withUTF8Buffer({ Array($0) }) == Array(bytes[at..<(at + count)]) else { throw .malformed }
            at += count
        }

        /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, as written.
        mutating func number() throws(WireError) -> String {
            let start = at
            func digits() -> Int {
                let from = at
                while let byte = peek, byte >= 0x30, byte <= 0x39 { at += 1 }
                return at - from
            }
            if peek == UInt8(ascii: "-") { at += 1 }
            if peek == UInt8(ascii: "0") { at += 1 } else if digits() == 0 { throw .malformed }
            if peek == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { throw .malformed }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                at += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw .malformed }
            }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        /// A string from its opening quote; escapes resolved, UTF-8 checked.
        mutating func string() throws(WireError) -> String {
            guard peek == UInt8(ascii: "\"") else { throw .malformed }
            at += 1
            var out: [UInt8] = []
            while true {
                guard let byte = peek else { throw .malformed }
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else { throw .malformed }
                    return text
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { throw .malformed }
                    at += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            // A high surrogate must be followed by a low one.
                            try word("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw .malformed }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw .malformed }
                        out += String(Character(unicode)).utf8
                    default: throw .malformed
                    }
                case 0..<0x20: throw .malformed
                default: out.append(byte)
                }
            }
        }

        mutating func hex4() throws(WireError) -> UInt32 {
            guard bytes.count - at >= 4 else { throw .malformed }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[at]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw .malformed
                }
                value = value << 4 | UInt32(digit)
                at += 1
            }
            return value
        }
    }
}
