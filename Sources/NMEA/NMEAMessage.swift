/// A decoded sentence of one of the kinds DeskDays uses, from any talker.
public enum NMEAMessage: Sendable, Hashable {
    case gga(GGA)
    case rmc(RMC)
    case gll(GLL)
    case gns(GNS)
    case gsa(GSA)
    case vtg(VTG)
    case zda(ZDA)

    /// Decodes `sentence`; nil for kinds DeskDays ignores (GSV, TXT,
    /// proprietary sentences, …). Throws when a known kind's fields do not
    /// parse. Any two-letter talker is accepted (GP, GN, GL, GA, GB, BD, …).
    public static func decode(_ sentence: Sentence) throws(NMEADecodeError) -> NMEAMessage? {
        let body = sentence.body
        guard body.count >= 5, body.count == 5 || body[5] == UInt8(ascii: ","),
              body[0] != UInt8(ascii: "P") else { return nil }
        // Pack the three formatter letters into one integer to switch on.
        let code = UInt32(body[2]) << 16 | UInt32(body[3]) << 8 | UInt32(body[4])
        switch code {
        case 0x47_47_41: return .gga(try GGA(sentence)) // GGA
        case 0x52_4D_43: return .rmc(try RMC(sentence)) // RMC
        case 0x47_4C_4C: return .gll(try GLL(sentence)) // GLL
        case 0x47_4E_53: return .gns(try GNS(sentence)) // GNS
        case 0x47_53_41: return .gsa(try GSA(sentence)) // GSA
        case 0x56_54_47: return .vtg(try VTG(sentence)) // VTG
        case 0x5A_44_41: return .zda(try ZDA(sentence)) // ZDA
        default: return nil
        }
    }
}
