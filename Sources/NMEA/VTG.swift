/// VTG, course over ground and ground speed. No time and no position: it
/// is decoded for completeness and tests, and adds nothing to a fix.
///
/// `$GPVTG,0.0,T,10.5,M,0.0,N,0.0,K*7A` (bu353s4.log)
///
/// | field | example | meaning                                   |
/// |-------|---------|-------------------------------------------|
/// | 1,2   | 0.0,T   | course, degrees true                      |
/// | 3,4   | 10.5,M  | course, degrees magnetic                  |
/// | 5,6   | 0.0,N   | speed, knots                              |
/// | 7,8   | 0.0,K   | speed, km/h                               |
/// | 9     |         | mode (NMEA 2.3+): A, D, E, N …            |
public struct VTG: Sendable, Hashable {
    public var courseTrue: Double?
    public var courseMagnetic: Double?
    public var speedKnots: Double?
    public var speedKmh: Double?
    public var modeIndicator: UInt8?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        courseTrue = try fields.decimal()
        fields.skip(1)
        courseMagnetic = try fields.decimal()
        fields.skip(1)
        speedKnots = try fields.decimal()
        fields.skip(1)
        speedKmh = try fields.decimal()
        fields.skip(1)
        modeIndicator = try fields.character()
    }
}
