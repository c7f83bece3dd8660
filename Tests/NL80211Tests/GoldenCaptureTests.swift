import Foundation
import NL80211
import Testing

/// Real replies from the test VM's kernel (Tests/Fixtures/netlink/hwsim,
/// see its README) read as the adapter reads them, checked against what
/// `iw dev wlan1 link` printed at the same moment.
@Suite struct GoldenCaptureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/netlink/hwsim")

    func messages(_ name: String) throws -> [NetlinkMessage] {
        try NetlinkMessage.parseAll(Array(Data(contentsOf: Self.directory.appendingPathComponent(name))))
    }

    func replies(_ name: String) throws -> [GenericNetlinkMessage] {
        try messages(name).filter { $0.type > NetlinkMessage.typeOverrun }.map { try $0.generic() }
    }

    /// `iw link`'s BSSID, SSID and signal: the expected values.
    func iwLink() throws -> (bssid: String, ssid: String, signal: Int) {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("iw-link.txt"), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let bssid = try #require(lines.first { $0.hasPrefix("Connected to ") }?.split(separator: " ")[2])
        let ssid = try #require(lines.first { $0.hasPrefix("SSID: ") }?.dropFirst(6))
        let signal = try #require(lines.first { $0.hasPrefix("signal: ") }?.split(separator: " ")[1])
        return (String(bssid), String(ssid), try #require(Int(signal)))
    }

    @Test func familyAndMLMEGroup() throws {
        let reply = try #require(try replies("ctrl-getfamily-nl80211.bin").first)
        let family = try ControlFamily(attributes: reply.attributes)
        #expect(family.name == Array("nl80211".utf8))
        #expect(family.multicastGroups[NL80211.mlmeGroup] != nil)
        #expect(family.multicastGroups.count >= 5)
    }

    @Test func linkMatchesIwLink() throws {
        let expected = try iwLink()
        let dumps = try messages("get-interface.bin")
        #expect(dumps.last?.type == NetlinkMessage.typeDone)
        let interfaces = try replies("get-interface.bin").compactMap { try? WirelessInterface(attributes: $0.attributes) }
        let station = try #require(interfaces.first { $0.displayName == "wlan1" })
        #expect(station.type == .station)
        #expect(station.mac == MACAddress("02:00:00:00:01:00"))
        // The kernel pitfall of docs/testing.md: no SSID in a station's interface message.
        #expect(station.ssid == nil)
        let ap = try #require(interfaces.first { $0.displayName == "wlan0" })
        #expect(ap.type == .accessPoint)
        #expect(ap.ssid == SSID("Office-5G"))

        let scan = try replies("get-scan.bin").map { try ScannedBSS(attributes: $0.attributes) }
        #expect(scan.filter(\.isAssociated).count == 1)
        let stations = try replies("get-station.bin").map { try StationInfo(attributes: $0.attributes) }
        let link = try #require(Link.assemble(interface: station, scan: scan, stations: stations))
        #expect(link.bssid?.description == expected.bssid)
        #expect(link.ssid.description == expected.ssid)
        #expect(link.signalDBm.map { abs($0 - expected.signal) <= 3 } == true, "\(String(describing: link.signalDBm)) vs \(expected.signal)")
    }

    @Test func mlmeEventsInOrder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasPrefix("mlme-") }.sorted()
        #expect(names.count >= 10)
        var changes: [MLMEEvent] = []
        for name in names {
            for message in try messages(name) {
                let event = try MLMEEvent(message.generic())
                if event.changesLink { changes.append(event) }
            }
        }
        let station = try #require(try replies("get-interface.bin").compactMap { try? WirelessInterface(attributes: $0.attributes) }
            .first { $0.displayName == "wlan1" })
        // connect, then `wpa_cli disconnect`, then `reconnect`.
        #expect(changes == [.connect(interfaceIndex: station.index, success: true),
                            .disconnect(interfaceIndex: station.index),
                            .connect(interfaceIndex: station.index, success: true)])
    }
}
