import Foundation
import NMEA
import Testing

/// Sentence vectors from minmea and pynmea2 (Tests/Fixtures/nmea/vectors).
@Suite struct VectorTests {
    static func frame(_ text: String) -> [FramerEvent] {
        var framer = NMEAFramer()
        var input = Array(text.utf8)
        if !(text.hasSuffix("\n") || text.hasSuffix("\r")) { input += [0x0D, 0x0A] }
        return framer.feed(input)
    }

    /// A sentence for the decoders; minmea and pynmea2 also test lines without a
    /// checksum, which our framer rejects (gpsd's policy), so those bodies are
    /// decoded directly.
    static func sentence(_ text: String) -> Sentence {
        var body = text.hasPrefix("$") ? String(text.dropFirst()) : text
        if let star = body.lastIndex(of: "*") { body = String(body[..<star]) }
        return Sentence(body)
    }

    static func minmeaList(_ key: String) throws -> [String] {
        let lists = try Fixtures.json("minmea_vectors.json")["lists"] as! [String: Any]
        return lists[key] as! [String]
    }

    static func pynmea2(_ test: String) throws -> String {
        let cases = try Fixtures.json("pynmea2_vectors.json")["cases"] as! [[String: Any]]
        return cases.first { $0["test"] as? String == test }!["sentence"] as! String
    }

    static func minmea(_ test: String) throws -> String {
        let cases = try Fixtures.json("minmea_vectors.json")["parse_tests"] as! [[String: Any]]
        return cases.first { $0["test"] as? String == test }!["sentence"] as! String
    }

    @Test func minmeaValidChecksummedSentencesAreAccepted() throws {
        let list = try VectorTests.minmeaList("valid_sentences_checksum")
        #expect(list.count > 15)
        for text in list {
            let events = VectorTests.frame(text)
            #expect(events.count == 1, "\(text)")
            guard case .sentence(let sentence) = events.first else {
                Issue.record("rejected: \(text)")
                continue
            }
            // Every kind we decode must decode without error.
            #expect(throws: Never.self) { try NMEAMessage.decode(sentence) }
        }
    }

    /// minmea accepts these when not strict; we follow gpsd, which requires the checksum.
    @Test func minmeaSentencesWithoutChecksumAreRejected() throws {
        for text in try VectorTests.minmeaList("valid_sentences_nochecksum") {
            let accepted = VectorTests.frame(text).contains { if case .sentence = $0 { true } else { false } }
            #expect(!accepted, "\(text.debugDescription)")
        }
    }

    @Test func minmeaInvalidSentencesAreRejected() throws {
        for text in try VectorTests.minmeaList("invalid_sentences") {
            let accepted = VectorTests.frame(text).contains { if case .sentence = $0 { true } else { false } }
            if text.hasPrefix("$$") {
                // Deliberate difference from minmea: `$$` starts are accepted, as gpsd does (ST Teseo).
                #expect(accepted)
            } else {
                #expect(!accepted, "\(text.debugDescription)")
            }
        }
    }

    @Test func minmeaRMC() throws {
        let rmc1 = try RMC(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_rmc1")))
        #expect(rmc1.time == UTCTime(hour: 8, minute: 18, second: 36, millisecond: 750))
        #expect(rmc1.isValid)
        #expect(abs(rmc1.latitude! - -(37 + 51.65 / 60)) < 1e-9)
        #expect(abs(rmc1.longitude! - (145 + 7.36 / 60)) < 1e-9)
        #expect(rmc1.speedKnots == 0)
        #expect(rmc1.course == 360)
        #expect(rmc1.date == UTCDate(year: 1998, month: 9, day: 13))
        let rmc2 = try RMC(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_rmc2")))
        #expect(rmc2.time == nil)
        #expect(rmc2.isValid)
        #expect(abs(rmc2.latitude! - (37 + 51.65 / 60)) < 1e-9)
        #expect(abs(rmc2.longitude! - -(145 + 7.36 / 60)) < 1e-9)
        #expect(rmc2.date == nil)
    }

    @Test func minmeaGGA() throws {
        let gga = try GGA(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_gga1")))
        #expect(gga.time == UTCTime(hour: 12, minute: 35, second: 19))
        #expect(abs(gga.latitude! - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(gga.longitude! - (11 + 31.0 / 60)) < 1e-9)
        #expect(gga.quality == 1)
        #expect(gga.satellites == 8)
        #expect(gga.hdop == 0.9)
        #expect(gga.altitude == 545.4)
    }

    @Test func minmeaGSA() throws {
        let gsa = try GSA(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_gsa1")))
        #expect(gsa.selection == UInt8(ascii: "A"))
        #expect(gsa.fixType == 3)
        #expect(gsa.satellites == [4, 5, 9, 12, 24])
        #expect(gsa.pdop == 2.5)
        #expect(gsa.hdop == 1.3)
        #expect(gsa.vdop == 2.1)
    }

    @Test func minmeaGLL() throws {
        let gll1 = try GLL(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_gll1")))
        #expect(abs(gll1.latitude! - (37 + 23.2475 / 60)) < 1e-9)
        #expect(abs(gll1.longitude! - -(121 + 58.3416 / 60)) < 1e-9)
        #expect(gll1.time == UTCTime(hour: 16, minute: 12, second: 29, millisecond: 487))
        #expect(gll1.isValid)
        #expect(gll1.modeIndicator == UInt8(ascii: "A"))
        let gll2 = try GLL(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_gll2")))
        #expect(abs(gll2.latitude! - (49 + 16.45 / 60)) < 1e-9)
        #expect(abs(gll2.longitude! - -(123 + 11.12 / 60)) < 1e-9)
        #expect(gll2.time == UTCTime(hour: 22, minute: 54, second: 44))
        #expect(gll2.isValid)
        #expect(gll2.modeIndicator == nil)
    }

    @Test func minmeaVTG() throws {
        let vtg1 = try VTG(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_vtg1")))
        #expect(vtg1.courseTrue == 54.7)
        #expect(vtg1.courseMagnetic == 34.4)
        #expect(vtg1.speedKnots == 5.5)
        #expect(vtg1.speedKmh == 10.2)
        #expect(vtg1.modeIndicator == nil)
        let vtg2 = try VTG(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_vtg2")))
        #expect(vtg2.courseTrue == 188.36)
        #expect(vtg2.courseMagnetic == nil)
        #expect(vtg2.speedKnots == 0.82)
        #expect(vtg2.speedKmh == 1.519)
        #expect(vtg2.modeIndicator == UInt8(ascii: "A"))
        let vtg3 = try VTG(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_vtg3")))
        #expect(vtg3.courseTrue == nil)
        #expect(vtg3.speedKnots == nil)
        #expect(vtg3.modeIndicator == UInt8(ascii: "N"))
    }

    @Test func minmeaZDA() throws {
        let zda = try ZDA(VectorTests.sentence(VectorTests.minmea("test_minmea_parse_zda1")))
        #expect(zda.time == UTCTime(hour: 16, minute: 0, second: 12, millisecond: 710))
        #expect(zda.date == UTCDate(year: 2004, month: 3, day: 11))
    }

    @Test func pynmea2GGA() throws {
        let text = try VectorTests.pynmea2("test_GGA")
        guard case .sentence(let sentence) = VectorTests.frame(text).first,
              case .gga(let gga) = try NMEAMessage.decode(sentence) else {
            Issue.record("not decoded as GGA")
            return
        }
        #expect(sentence.talker == "GP")
        #expect(sentence.formatter == "GGA")
        #expect(gga.time == UTCTime(hour: 18, minute: 43, second: 53, millisecond: 70))
        #expect(abs(gga.latitude! - -(19 + 29.045 / 60)) < 1e-9)
        #expect(abs(gga.longitude! - (24 + 10.506 / 60)) < 1e-9)
        #expect(gga.quality == 1)
        #expect(gga.satellites == 4)
        #expect(gga.hdop == 2.6)
        #expect(gga.altitude == 100)
    }

    @Test func pynmea2RMC() throws {
        let text = try VectorTests.pynmea2("test_RMC")
        guard case .sentence(let sentence) = VectorTests.frame(text).first,
              case .rmc(let rmc) = try NMEAMessage.decode(sentence) else {
            Issue.record("not decoded as RMC")
            return
        }
        #expect(rmc.time == UTCTime(hour: 22, minute: 54, second: 46))
        #expect(rmc.date == UTCDate(year: 1994, month: 11, day: 19))
        #expect(abs(rmc.latitude! - 49.274166666666666) < 1e-12)
        #expect(abs(rmc.longitude! - -123.18533333333333) < 1e-12)
        #expect(rmc.isValid)
    }

    @Test func pynmea2ZDA() throws {
        let zda = try ZDA(VectorTests.sentence(VectorTests.pynmea2("test_ZDA")))
        #expect(zda.time == UTCTime(hour: 1, minute: 2, second: 3, millisecond: 50))
        #expect(zda.date == UTCDate(year: 2008, month: 7, day: 6))
    }

    @Test func pynmea2GLLAndGSAAreValid() throws {
        for (test, kind) in [("test_GLL", "GLL"), ("test_GSA", "GSA")] {
            let text = try VectorTests.pynmea2(test)
            guard case .sentence(let sentence) = VectorTests.frame(text).first else {
                Issue.record("rejected \(test)")
                continue
            }
            switch try NMEAMessage.decode(sentence) {
            case .gll(let gll): #expect(kind == "GLL" && gll.isValid)
            case .gsa(let gsa): #expect(kind == "GSA" && gsa.fixType == 3 && gsa.satellites == [2, 7, 9, 24, 26])
            default: Issue.record("\(test) decoded as something else")
            }
        }
    }

    @Test func pynmea2MissingFields() throws {
        let vtg = try VTG(VectorTests.sentence(VectorTests.pynmea2("test_missing")))
        #expect(vtg.courseMagnetic == nil)
        #expect(vtg.courseTrue == 108.53)
        let short = try VTG(VectorTests.sentence(VectorTests.pynmea2("test_missing_3")))
        #expect(short.speedKmh == nil)
        #expect(short.speedKnots == 0)
        let gga = try GGA(VectorTests.sentence(VectorTests.pynmea2("test_missing_latlon")))
        #expect(gga.latitude == nil)
        #expect(gga.quality == 0)
    }

    /// pynmea2 keeps the raw `0.D`; we refuse a sentence whose number fields do not parse.
    @Test func pynmea2CorruptSpeedIsAnError() throws {
        let sentence = VectorTests.sentence(try VectorTests.pynmea2("test_corrupt_message"))
        #expect(throws: NMEADecodeError.self) { try RMC(sentence) }
    }

    @Test func anyTalkerIsDecoded() throws {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "IN", "EC"] {
            let message = try NMEAMessage.decode(Sentence("\(talker)GLL,4916.45,N,12311.12,W,225444,A,A"))
            guard case .gll(let gll) = message else {
                Issue.record("\(talker)GLL not decoded")
                continue
            }
            #expect(gll.isValid)
        }
        #expect(try NMEAMessage.decode(Sentence("GPGSV,3,3,09,24,03,046,")) == nil)
        #expect(try NMEAMessage.decode(Sentence("PGRME,15.0,M,45.0,M,25.0,M")) == nil)
    }
}
