/// GSA, DOP and active satellites: the fix type (none, 2D, 3D) and the
/// dilutions of precision. It carries no time; it belongs to the cycle of
/// the sentences around it. Multi-constellation receivers send one per
/// system in each cycle.
///
/// `$GNGSA,A,2,02,08,10,23,27,,,,,,,,1.6,1.3,0.9,1*33` (telit-pls83-w.log)
///
/// | field  | example | meaning                                          |
/// |--------|---------|--------------------------------------------------|
/// | 1      | A       | selection: A automatic, M manual                 |
/// | 2      | 2       | fix type: 1 none, 2 2D, 3 3D (Antaris: E dead reckoning) |
/// | 3–14   | 02,08,… | PRNs of the satellites used (empty when unused)  |
/// | 15     | 1.6     | PDOP                                             |
/// | 16     | 1.3     | HDOP                                             |
/// | 17     | 0.9     | VDOP                                             |
/// | 18     | 1       | system ID (NMEA 4.1+): 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou |
///
/// The DOPs are read from fields 15–17 whatever the PRN count, as gpsd does.
public struct GSA: Sendable, Hashable {
    public var selection: UInt8?
    /// 1, 2 or 3; nil when absent or not a number (`E`).
    public var fixType: Int?
    public var satellites: [Int]
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?

    public init(_ sentence: Sentence) throws(NMEADecodeError) {
        var fields = FieldReader(sentence)
        selection = try fields.character()
        let type = try fields.character()
        fixType = type.flatMap { (1...3).contains(Int($0) - 48) ? Int($0) - 48 : nil }
        satellites = []
        for _ in 0..<12 {
            if let prn = try fields.integer() { satellites.append(prn) }
        }
        pdop = try fields.decimal()
        hdop = try fields.decimal()
        vdop = try fields.decimal()
    }
}
