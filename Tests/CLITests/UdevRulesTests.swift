import Foundation
import Testing

/// The udev rules keep their promises: every GPS receiver and every PN532
/// serial bridge they match is marked `ID_MM_DEVICE_IGNORE=1`, so
/// ModemManager does not probe it with AT commands (hardware-notes.md).
struct UdevRulesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("udev")

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test func everyGPSReceiverIsHiddenFromModemManager() async throws {
        let lines = try Self.lines("70-deskdays-gps.rules")
        let devices = lines.filter { $0.contains("ATTRS{idVendor}") }
        #expect(devices.count >= 5, "\(devices)")
        for line in devices {
            #expect(line.hasSuffix("GOTO=\"deskdays_gps\""), "\(line) reaches the marking label")
        }
        let label = try #require(lines.firstIndex(of: "LABEL=\"deskdays_gps\""))
        #expect(lines[label + 1].contains("ENV{ID_MM_DEVICE_IGNORE}=\"1\""), "\(lines[label + 1])")
        #expect(lines[label + 1].contains("TAG+=\"uaccess\""))
        // Nothing jumps past the end label before the marking, except non-tty devices.
        #expect(lines.first == "SUBSYSTEM!=\"tty\", GOTO=\"deskdays_gps_end\"")
    }

    @Test func pn532SerialBridgesAreHiddenFromModemManager() async throws {
        let lines = try Self.lines("70-deskdays-nfc.rules")
        let start = try #require(lines.firstIndex(of: "LABEL=\"deskdays_nfc_tty\""))
        let bridges = lines[(start + 1)...].prefix { !$0.hasPrefix("LABEL=") }.filter { $0.contains("ATTRS{idVendor}") }
        #expect(!bridges.isEmpty)
        for line in bridges {
            #expect(line.contains("ENV{ID_MM_DEVICE_IGNORE}=\"1\""), "\(line)")
        }
    }
}
