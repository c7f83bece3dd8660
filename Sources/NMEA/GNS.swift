/// GNS, GNSS fix data: GGA's multi-constellation successor, with one mode
/// character per constellation.
///
/// `$GNGNS,074155.799,3114.8770,N,12135.2463,E,ANNA,05,1.3,156.9,8.3,,0000*52`
/// (beidou-bd.log)
///
/// | field | example      | meaning                                       |
/// |-------|--------------|-----------------------------------------------|
/// | 1     | 074155.799   | UTC time of the fix, hhmmss.sss               |
/// | 2,3   | 3114.8770,N  | latitude ddmm.mmmm, N/S                       |
/// | 4,5   | 12135.2463,E | longitude dddmm.mmmm, E/W                     |
/// | 6     | ANNA         | mode per system (GPS, GLONASS, Galileo, BeiDou, …): A autonomous, D differential, N no fix, … |
/// | 7     | 05           | satellites used                               |
/// | 8     | 1.3          | HDOP                                          |
/// | 9     | 156.9        | altitude above mean sea level, metres         |
/// | 10    | 8.3          | geoid separation, metres                      |
/// | 11    |              | age of differential data, s                   |
/// | 12    | 0000         | differential station                          |
/// | 13    |              | navigation status (NMEA 4.1+): S safe, C caution, U unsafe, V not valid |
public struct GNS: Sendable, Hashable {
    public var time: UTCTime?
    public var latitude: Double?
    public var longitude: Double?
    /// The mode characters, one per constellation.
    public var modeIndicators: [UInt8]
    public var satellites: Int?
    public var hdop: Double?
    public var altitude: Double?
    public var navigationStatus: UInt8?

    /// True when some constellation has a fix and the navigation status
    /// does not say unsafe or not valid.
    public var isValid: Bool {
        modeIndicators.contains { $0 != UInt8(ascii: "N") && $0 != UInt8(ascii: "V") }
            && navigationStatus != UInt8(ascii: "U") && navigationStatus != UInt8(ascii: "V")
    }

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        time = try fields.time()
        latitude = fields.coordinate(isLatitude: true)
        longitude = fields.coordinate(isLatitude: false)
        modeIndicators = fields.text() ?? []
        satellites = try fields.integer()
        hdop = try fields.decimal()
        altitude = try fields.decimal()
        fields.skip(3)
        navigationStatus = try fields.character()
    }
}
