/// GLL, geographic position: latitude, longitude, time and status.
///
/// `$GPGLL,4808.9993,N,01135.0798,E,000343.03,A,A*60` (neo-m8n.log)
///
/// | field | example      | meaning                                       |
/// |-------|--------------|-----------------------------------------------|
/// | 1,2   | 4808.9993,N  | latitude ddmm.mmmm, N/S                       |
/// | 3,4   | 01135.0798,E | longitude dddmm.mmmm, E/W                     |
/// | 5     | 000343.03    | UTC time of the position, hhmmss.ss           |
/// | 6     | A            | status: A valid, V invalid                    |
/// | 7     | A            | mode (NMEA 2.3+): A autonomous, D differential, N not valid, … |
///
/// Old receivers (Garmin 65) omit time and status; SiRF omits the mode.
public struct GLL: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    public var time: UTCTime?
    public var isValid: Bool
    public var modeIndicator: UInt8?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        latitude = fields.coordinate(isLatitude: true)
        longitude = fields.coordinate(isLatitude: false)
        time = try fields.time()
        isValid = try fields.character() == UInt8(ascii: "A")
        modeIndicator = try fields.character()
        if modeIndicator == UInt8(ascii: "N") { isValid = false }
    }
}
