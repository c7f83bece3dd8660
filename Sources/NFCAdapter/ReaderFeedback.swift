/// How a desk reader answers a tap (`[nfc] feedback`, docs/cli.md "Feedback
/// on a check-in"): a short green blink and one beep when the tag checks the
/// user in, a red blink and two beeps when no rule knows it (or it shows a
/// random UID). Only ACS readers, whose commands their manuals give; any
/// other reader is left alone.
enum ReaderFeedback {
    enum Command: Equatable {
        /// A pseudo-APDU the reader takes itself (class FF), through `SCardTransmit`.
        case apdu([UInt8])
        /// An escape command, through `SCardControl`.
        case escape([UInt8])
        case pause(UInt32)
    }

    /// pcsc-lite's `SCARD_CTL_CODE(3500)`, the CCID escape (a macro Swift cannot import).
    static let escapeCode: UInt32 = 0x4200_0000 + 3500

    static func commands(reader: String, accepted: Bool) -> [Command] {
        if reader.contains("ACR122") {
            // ACR122U API, "Bi-Color LED and Buzzer Control": FF 00 40 P2 04 T1 T2 repetitions buzzer.
            // P2: blink green (A8) or red (54), back to the state before; T1 = T2 = 100 ms;
            // the buzzer on during T1 of each repetition: one beep, or two.
            return accepted ? [.apdu([0xFF, 0x00, 0x40, 0xA8, 0x04, 0x01, 0x01, 0x01, 0x01])]
                            : [.apdu([0xFF, 0x00, 0x40, 0x54, 0x04, 0x01, 0x01, 0x02, 0x01])]
        }
        if reader.contains("ACR1252") || reader.contains("ACR1255") {
            // ACR1252U reference manual, escape commands: LED control E0 00 00 29 01 (bit 0 red,
            // bit 1 green), buzzer control E0 00 00 28 01 (duration, 10 ms units).
            let led: UInt8 = accepted ? 0x02 : 0x01
            let beep = Command.escape([0xE0, 0x00, 0x00, 0x28, 0x01, 0x0A])
            return [.escape([0xE0, 0x00, 0x00, 0x29, 0x01, led]), beep]
                + (accepted ? [] : [.pause(150), beep])
                + [.pause(150), .escape([0xE0, 0x00, 0x00, 0x29, 0x01, 0x00])]
        }
        return []
    }
}
