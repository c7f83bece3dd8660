extension Fix {
    /// Appends the `nmea decode` line (docs/cli.md): exactly the keys `time`,
    /// `lat`, `lon`, `mode`, `hdop`, `sats`, then a newline.
    ///
    /// `time` is RFC 3339 UTC with milliseconds when the date is known,
    /// `hh:mm:ss.sssZ` (time of day only) when the receiver sent no date,
    /// null without a time. `lat`/`lon` have 9 decimals (as gpsd prints
    /// them) and are null without a 2D/3D fix; `hdop`, `sats` null when
    /// unknown. Written byte by byte: this is the hot path of the bench.
    public func appendJSONLine(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"time":"#.utf8)
        if let time {
            out.append(UInt8(ascii: "\""))
            if let date {
                Fix.appendDigits(date.year, width: 4, to: &out)
                out.append(UInt8(ascii: "-"))
                Fix.appendDigits(date.month, width: 2, to: &out)
                out.append(UInt8(ascii: "-"))
                Fix.appendDigits(date.day, width: 2, to: &out)
                out.append(UInt8(ascii: "T"))
            }
            let leap = time.milliseconds >= 86_400_000
            Fix.appendDigits(leap ? 23 : time.hour, width: 2, to: &out)
            out.append(UInt8(ascii: ":"))
            Fix.appendDigits(time.minute, width: 2, to: &out)
            out.append(UInt8(ascii: ":"))
            Fix.appendDigits(leap ? 60 : time.second, width: 2, to: &out)
            out.append(UInt8(ascii: "."))
            Fix.appendDigits(time.millisecond, width: 3, to: &out)
            out.append(contentsOf: "Z\"".utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","lat":"#.utf8)
        Fix.appendFixed(hasPosition ? latitude : nil, to: &out)
        out.append(contentsOf: #","lon":"#.utf8)
        Fix.appendFixed(hasPosition ? longitude : nil, to: &out)
        out.append(contentsOf: #","mode":"#.utf8)
        out.append(UInt8(ascii: "0") + UInt8(mode.rawValue))
        out.append(contentsOf: #","hdop":"#.utf8)
        if let hdop { out.append(contentsOf: hdop.description.utf8) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","sats":"#.utf8)
        if let satellites { Fix.appendDigits(satellites, width: 1, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: "}\n".utf8)
    }

    /// The JSON line as a string (tests, single fixes).
    public var jsonLine: String {
        var out: [UInt8] = []
        appendJSONLine(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendDigits(_ value: Int, width: Int, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = UInt64(max(0, value))
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 && count < 20
            while count < width && count < 20 {
                buffer[count] = UInt8(ascii: "0")
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// Degrees with 9 decimals, or null.
    private static func appendFixed(_ value: Double?, to out: inout [UInt8]) {
        guard let value, value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        let scaled = (abs(value) * 1e9).rounded()
        let whole = Int(scaled / 1e9)
        let fraction = Int(scaled - Double(whole) * 1e9)
        if value < 0, scaled > 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(whole, width: 1, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(fraction, width: 9, to: &out)
    }
}
