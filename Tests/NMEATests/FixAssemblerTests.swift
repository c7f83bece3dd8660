import NMEA
import Testing

@Suite struct FixAssemblerTests {
    static func fixes(_ lines: [String]) -> [Fix] {
        var decoder = NMEAStreamDecoder()
        var fixes: [Fix] = []
        for line in lines {
            decoder.feed(Array((Sentence(line).description + "\r\n").utf8)) { fixes.append($0) }
        }
        decoder.finish { fixes.append($0) }
        return fixes
    }

    @Test func oneFixPerCycle() {
        let fixes = FixAssemblerTests.fixes([
            "GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000",
            "GPGSA,A,3,03,07,08,11,13,16,19,23,,,,,2.0,1.1,1.7",
            "GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.00,,260120,,,A",
            "GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.2,59.8,M,23.7,M,,0000",
        ])
        #expect(fixes.count == 2)
        #expect(fixes[0].jsonLine
            == #"{"time":"2020-01-26T03:07:19.000Z","lat":-37.784788333,"lon":175.314896667,"mode":3,"hdop":1.1,"sats":8}"# + "\n")
        // The second cycle's date is carried from the first.
        #expect(fixes[1].date == UTCDate(year: 2020, month: 1, day: 26))
        #expect(fixes[1].hdop == 1.2)
    }

    @Test func noFixHasNullPosition() {
        let fixes = FixAssemblerTests.fixes(["GPRMC,235948.00,V,0000.0000,N,00000.0000,E,,,161206,,,N"])
        #expect(fixes.map(\.jsonLine)
            == [#"{"time":"2006-12-16T23:59:48.000Z","lat":null,"lon":null,"mode":1,"hdop":null,"sats":null}"# + "\n"])
    }

    @Test func dateAdvancesAcrossMidnight() {
        let fixes = FixAssemblerTests.fixes([
            "GPRMC,235959.00,A,4808.9993,N,01135.0798,E,0.0,0.0,311225,,,A",
            "GPGLL,4808.9993,N,01135.0798,E,000000.00,A,A",
        ])
        #expect(fixes.map(\.date) == [UTCDate(year: 2025, month: 12, day: 31), UTCDate(year: 2026, month: 1, day: 1)])
    }

    /// A cycle of RMC alone cannot tell 2D from 3D: it keeps the previous 3D, as gpsd does.
    @Test func rmcOnlyCycleKeepsThreeD() {
        let fixes = FixAssemblerTests.fixes([
            "INGGA,194104,4426.1138,N,07140.5536,W,2,10,0.9,267.9,M,,,,",
            "INRMC,194105,A,4426.1142,N,07140.5515,W,5.3,76.8,160906,15.8,W",
            "INRMC,194106,V,4426.1142,N,07140.5515,W,5.3,76.8,160906,15.8,W",
            "INRMC,194107,A,4426.1142,N,07140.5515,W,5.3,76.8,160906,15.8,W",
        ])
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .noFix, .twoD])
    }

    /// Multi-constellation receivers send a "no fix" GSA for a system with no
    /// satellites in use; it does not cancel the others' 3D.
    @Test func perSystemGSA() {
        let fixes = FixAssemblerTests.fixes([
            "GNRMC,074155.799,A,3114.8770,N,12135.2463,E,0.30,4.94,250215,,,A",
            "GNGSA,A,3,02,08,10,23,27,,,,,,,,1.6,1.3,0.9,1",
            "GNGSA,A,1,,,,,,,,,,,,,1.6,1.3,0.9,3",
        ])
        #expect(fixes.map(\.mode) == [.threeD])
        #expect(fixes[0].hdop == 1.3)
    }

    @Test func ggaQualityZeroIsNoFix() {
        let fixes = FixAssemblerTests.fixes([
            "GPGGA,000416.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000",
        ])
        #expect(fixes.map(\.mode) == [.noFix])
        #expect(!fixes[0].hasPosition)
    }

    /// 99.99 is how receivers say "no DOP".
    @Test func unusableHDOPIsUnknown() {
        let fixes = FixAssemblerTests.fixes(["GPGGA,,,,,,0,00,99.99,,,,,,"])
        #expect(fixes.first?.hdop == nil)
    }
}
