import DeskDaysConfig
import Foundation
import NL80211
import Testing
import WiFiAdapter

/// `[[wifi.networks]]` matching on SSID bytes, BSSID pins and signal.
@Suite struct MatchingTests {
    static let office = MACAddress("02:00:00:00:00:00")!
    static let lobby = MACAddress("02:00:00:00:01:00")!

    func link(_ ssid: SSID, bssid: MACAddress? = office, signal: Int? = -50) -> Link {
        Link(interfaceIndex: 3, interfaceName: "wlan1", ssid: ssid, bssid: bssid, signalDBm: signal)
    }

    func matcher(_ networks: [WiFiSettings.Network]) -> NetworkMatcher {
        var settings = WiFiSettings()
        settings.networks = networks
        return NetworkMatcher(settings)
    }

    @Test func ssidBytes() {
        let matcher = matcher([WiFiSettings.Network(name: "hq", ssid: "Office-5G")])
        #expect(matcher.rule(for: link(SSID("Office-5G")!)) == "hq")
        #expect(matcher.rule(for: link(SSID("office-5g")!)) == nil)
        #expect(matcher.rule(for: link(SSID("Office-5G ")!)) == nil)
        #expect(matcher.rule(for: link(SSID(bytes: Array("Office-5G".utf8) + [0])!)) == nil)
    }

    @Test func nonASCIISSIDMatchesItsUTF8Bytes() {
        let matcher = matcher([WiFiSettings.Network(name: "café", ssid: "Café")])
        #expect(matcher.rule(for: link(SSID(bytes: [0x43, 0x61, 0x66, 0xC3, 0xA9])!)) == "café")
        #expect(matcher.rule(for: link(SSID(bytes: [0x43, 0x61, 0x66, 0xE9])!)) == nil)
    }

    @Test func bssidPin() {
        let matcher = matcher([WiFiSettings.Network(name: "hq", ssid: "Office-5G", bssids: ["02:00:00:00:00:00"])])
        #expect(matcher.rule(for: link(SSID("Office-5G")!, bssid: Self.office)) == "hq")
        #expect(matcher.rule(for: link(SSID("Office-5G")!, bssid: Self.lobby)) == nil)
        #expect(matcher.rule(for: link(SSID("Office-5G")!, bssid: nil)) == nil)
    }

    @Test func minimumSignal() {
        let matcher = matcher([WiFiSettings.Network(name: "hq", ssid: "Office-5G", minSignalDBm: -70)])
        #expect(matcher.rule(for: link(SSID("Office-5G")!, signal: -70)) == "hq")
        #expect(matcher.rule(for: link(SSID("Office-5G")!, signal: -71)) == nil)
        #expect(matcher.rule(for: link(SSID("Office-5G")!, signal: nil)) == nil)
    }

    @Test func firstRuleInFileOrder() {
        let matcher = matcher([WiFiSettings.Network(name: "desk", ssid: "Office-5G", bssids: ["02:00:00:00:01:00"]),
                               WiFiSettings.Network(name: "hq", ssid: "Office-5G")])
        #expect(matcher.rule(for: link(SSID("Office-5G")!, bssid: Self.lobby)) == "desk")
        #expect(matcher.rule(for: link(SSID("Office-5G")!, bssid: Self.office)) == "hq")
    }
}
