/// GGA, global positioning system fix data: the sentence with fix quality,
/// satellites in use, HDOP and altitude.
///
/// `$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D`
/// (tn200.log)
///
/// | field | example    | meaning                                          |
/// |-------|------------|--------------------------------------------------|
/// | 1     | 030719.000 | UTC time of the fix, hhmmss.sss                  |
/// | 2,3   | 3747.0873,S| latitude ddmm.mmmm, N/S                          |
/// | 4,5   | 17518.8938,E | longitude dddmm.mmmm, E/W                      |
/// | 6     | 1          | quality: 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK, 5 float RTK, 6 dead reckoning, 7 manual, 8 simulator |
/// | 7     | 08         | satellites used                                  |
/// | 8     | 1.1        | HDOP                                             |
/// | 9,10  | 59.9,M     | altitude above mean sea level, metres            |
/// | 11,12 | 23.7,M     | geoid separation, metres                         |
/// | 13    |            | age of DGPS corrections, s                       |
/// | 14    | 0000       | DGPS station                                     |
public struct GGA: Sendable, Hashable {
    public var time: UTCTime?
    public var latitude: Double?
    public var longitude: Double?
    public var quality: Int?
    public var satellites: Int?
    public var hdop: Double?
    public var altitude: Double?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        time = try fields.time()
        latitude = fields.coordinate(isLatitude: true)
        longitude = fields.coordinate(isLatitude: false)
        quality = try fields.integer()
        satellites = try fields.integer()
        hdop = try fields.decimal()
        altitude = try fields.decimal()
    }
}
