/// ZDA, time and date: the UTC date with a four-digit year.
///
/// `$GNZDA,091232.000,10,10,2015,,*45` (nl2008u.log)
///
/// | field | example    | meaning                               |
/// |-------|------------|---------------------------------------|
/// | 1     | 091232.000 | UTC time, hhmmss.sss                  |
/// | 2     | 10         | day                                   |
/// | 3     | 10         | month                                 |
/// | 4     | 2015       | year                                  |
/// | 5     |            | local zone hours (−13…13)             |
/// | 6     |            | local zone minutes                    |
public struct ZDA: Sendable, Hashable {
    public var time: UTCTime?
    /// Nil when any part is absent or not a real date.
    public var date: UTCDate?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        time = try fields.time()
        let day = try fields.integer()
        let month = try fields.integer()
        let year = try fields.integer()
        if let day, let month, let year { date = UTCDate(year: year, month: month, day: day) }
    }
}
