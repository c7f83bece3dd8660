/// Walks the comma-separated data fields of a sentence, left to right, and
/// parses them from bytes. Reading past the last field yields empty fields,
/// which every parser treats as "absent": receivers often drop trailing
/// empty fields.
struct FieldReader {
    private let bytes: [UInt8]
    private var position: Int
    /// 1-based number of the field `next()` returned last (for errors).
    private(set) var fieldNumber = 0

    /// Positions the reader after the address field.
    init(_ sentence: Sentence) {
        bytes = sentence.body
        position = (bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.count) + 1
    }

    /// The next field's bytes; empty when absent or past the end.
    mutating func next() -> ArraySlice<UInt8> {
        fieldNumber += 1
        guard position <= bytes.count else { return bytes[bytes.count..<bytes.count] }
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
        defer { position = end + 1 }
        return bytes[position..<end]
    }

    /// Skips `count` fields.
    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// True when every field has been read.
    var isAtEnd: Bool { position > bytes.count }

    private func bad() -> NMEADecodeError { NMEADecodeError(field: fieldNumber) }

    // MARK: - Typed reads

    /// A decimal number (`-12.5`, `007`, `.5`); nil when the field is empty.
    mutating func decimal() throws(NMEADecodeError) -> Double? {
        let field = next()
        if field.isEmpty { return nil }
        guard let value = FieldReader.parseDecimal(field) else { throw bad() }
        return value
    }

    /// An unsigned integer; nil when the field is empty.
    mutating func integer() throws(NMEADecodeError) -> Int? {
        let field = next()
        if field.isEmpty { return nil }
        guard field.count <= 9 else { throw bad() }
        var value = 0
        for byte in field {
            guard byte &- 48 < 10 else { throw bad() }
            value = value * 10 + Int(byte &- 48)
        }
        return value
    }

    /// A single character field (status, hemisphere, mode); nil when empty.
    mutating func character() throws(NMEADecodeError) -> UInt8? {
        let field = next()
        if field.isEmpty { return nil }
        guard field.count == 1 else { throw bad() }
        return field.first
    }

    /// The raw text of a field (mode indicator strings); nil when empty.
    mutating func text() -> [UInt8]? {
        let field = next()
        return field.isEmpty ? nil : Array(field)
    }

    /// `hhmmss[.sss…]`; nil when empty.
    mutating func time() throws(NMEADecodeError) -> UTCTime? {
        let field = next()
        if field.isEmpty { return nil }
        guard let time = UTCTime(field) else { throw bad() }
        return time
    }

    /// Two fields, `ddmm.mmmm,N` or `dddmm.mmmm,E`: degrees and minutes
    /// with a hemisphere. Nil when absent, and also when malformed or out of
    /// range: receivers without a fix send junk here (the TN200 sends
    /// `36000.0000,N`), and that must not cost the rest of the sentence
    /// (its status and date). A missing position is never a fix.
    mutating func coordinate(isLatitude: Bool) -> Double? {
        let value = next()
        let hemisphere = next()
        guard hemisphere.count == 1, let degrees = FieldReader.parseDegreesMinutes(value),
              degrees <= (isLatitude ? 90.0 : 180.0) else { return nil }
        switch hemisphere.first! {
        case UInt8(ascii: "N") where isLatitude, UInt8(ascii: "E") where !isLatitude: return degrees
        case UInt8(ascii: "S") where isLatitude, UInt8(ascii: "W") where !isLatitude: return -degrees
        default: return nil
        }
    }

    // MARK: - Byte parsers

    /// Powers of ten that are exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses `[+-]digits[.digits]` exactly for up to 18 significant digits;
    /// further fraction digits are dropped (far below any receiver's precision).
    static func parseDecimal(_ field: ArraySlice<UInt8>) -> Double? {
        var index = field.startIndex
        var negative = false
        if index < field.endIndex, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") {
            negative = field[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var seenPoint = false
        var sawDigit = false
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte &- 48 < 10 {
                sawDigit = true
                if significant < 18, fractionDigits < powersOfTen.count - 1 {
                    if mantissa != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                    mantissa = mantissa * 10 + UInt64(byte &- 48)
                    if seenPoint { fractionDigits += 1 }
                } else if !seenPoint {
                    return nil // more integer digits than any NMEA field has
                }
            } else {
                return nil
            }
            index += 1
        }
        guard sawDigit else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Parses `DDDMM.mmmm` into decimal degrees, keeping the minutes'
    /// fraction exact (integer part and fraction are split before dividing).
    static func parseDegreesMinutes(_ field: ArraySlice<UInt8>) -> Double? {
        var whole = 0
        var wholeDigits = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var seenPoint = false
        for byte in field {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte &- 48 < 10 {
                if seenPoint {
                    if fractionDigits < 15 {
                        fraction = fraction * 10 + UInt64(byte &- 48)
                        fractionDigits += 1
                    }
                } else {
                    guard wholeDigits < 5 else { return nil }
                    whole = whole * 10 + Int(byte &- 48)
                    wholeDigits += 1
                }
            } else {
                return nil
            }
        }
        guard wholeDigits >= 3 || (wholeDigits >= 1 && whole < 100 && seenPoint) else { return nil }
        let minutes = Double(whole % 100) + Double(fraction) / powersOfTen[fractionDigits]
        guard minutes < 60 else { return nil }
        return Double(whole / 100) + minutes / 60
    }
}

/// A sentence whose fields do not parse: which field (1-based data field)
/// was wrong. Never carries the field's content (it may be a position).
public struct NMEADecodeError: Error, Sendable, Hashable {
    public let field: Int
}
