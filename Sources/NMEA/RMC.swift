/// RMC, recommended minimum specific GNSS data: status, position and date.
///
/// `$GNRMC,074155.799,A,3114.8770,N,12135.2463,E,0.30,4.94,250215,,,A*76`
/// (beidou-bd.log)
///
/// | field | example     | meaning                                        |
/// |-------|-------------|------------------------------------------------|
/// | 1     | 074155.799  | UTC time of the fix, hhmmss.sss                |
/// | 2     | A           | status: A valid, V warning (no usable fix)     |
/// | 3,4   | 3114.8770,N | latitude ddmm.mmmm, N/S                        |
/// | 5,6   | 12135.2463,E| longitude dddmm.mmmm, E/W                      |
/// | 7     | 0.30        | speed over ground, knots                       |
/// | 8     | 4.94        | course over ground, degrees true               |
/// | 9     | 250215      | UTC date ddmmyy (25 Feb 2015)                  |
/// | 10,11 |             | magnetic variation, E/W                        |
/// | 12    | A           | mode (NMEA 2.3+): A autonomous, D differential, E estimated, N not valid, … |
/// | 13    |             | navigation status (NMEA 4.1+)                  |
public struct RMC: Sendable, Hashable {
    public var time: UTCTime?
    /// True for `A`, false for `V` (or anything else, or absent).
    public var isValid: Bool
    public var latitude: Double?
    public var longitude: Double?
    public var speedKnots: Double?
    public var course: Double?
    /// Nil when absent or not a real date (receivers send junk while cold).
    public var date: UTCDate?
    public var modeIndicator: UInt8?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        time = try fields.time()
        isValid = try fields.character() == UInt8(ascii: "A")
        latitude = fields.coordinate(isLatitude: true)
        longitude = fields.coordinate(isLatitude: false)
        speedKnots = try fields.decimal()
        course = try fields.decimal()
        date = try fields.integer().flatMap { value in
            // ddmmyy; GPS began in 1980, so 80–99 are 19xx.
            let year = value % 100
            return UTCDate(year: year < 80 ? 2000 + year : 1900 + year, month: value / 100 % 100, day: value / 10_000)
        }
        fields.skip(2)
        // A mode indicator of N (not valid) overrides a stray `A` status.
        modeIndicator = try fields.character()
        if modeIndicator == UInt8(ascii: "N") { isValid = false }
    }
}
