import DeskDaysConfig
import Foundation
import NL80211
import Testing
import Wired
@testable import DeskDaysDoctor

/// `doctor`'s wired section on injected gateways: each gateway named by its
/// interface, family and rule, never its MAC.
struct DoctorWiredTests {
    static let office = MACAddress("02:00:00:00:0a:01")!
    static func gateway(_ name: String, _ family: IPAddress.Family, _ mac: MACAddress?) -> Gateway {
        let bytes: [UInt8] = family == .ipv4 ? [10, 0, 0, 1] : [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1]
        return Gateway(key: .init(interfaceIndex: 2, address: IPAddress(family: family, bytes: bytes)!), interfaceName: name, mac: mac)
    }
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.wired.enabled = true
        configuration.wired.networks = [.init(name: "hq", gatewayMACs: [office.description])]
        return configuration
    }

    @Test func eachGatewayIsNamedByItsRuleOrWhyNot() throws {
        let gateways = [Self.gateway("eth0", .ipv4, Self.office), Self.gateway("eth0", .ipv6, nil),
                        Self.gateway("wlan0", .ipv4, MACAddress("02:00:00:00:0b:01")!)]
        let wired = DoctorTests.section(Diagnosis(defaultGateways: { gateways }).diagnose(Self.configuration), "wired")
        let texts = wired.findings.map(\.text)
        #expect(wired.summary == "enabled")
        #expect(texts.contains("the default gateway on eth0 (IPv4) is the office network \"hq\""), "\(texts)")
        #expect(texts.contains { $0.hasPrefix("the default gateway on eth0 (IPv6) is not resolved yet") }, "\(texts)")
        #expect(texts.contains("the default gateway on wlan0 (IPv4) is none of the configured networks (not at the office now?)"), "\(texts)")
        #expect(!texts.joined().contains("02:00"), "\(texts)")
        #expect(!Doctor.failed([wired]))
    }

    @Test func nothingToMatchOrNothingReadable() {
        var empty = Self.configuration
        empty.wired.networks = []
        let noRules = DoctorTests.section(Diagnosis(defaultGateways: { [] }).diagnose(empty), "wired")
        #expect(Doctor.failed([noRules]))
        #expect(noRules.findings.contains { $0.text.hasPrefix("no default gateway now") })
        let unreadable = DoctorTests.section(Diagnosis(defaultGateways: { nil }).diagnose(Self.configuration), "wired")
        #expect(unreadable.findings.contains { $0.level == .problem && $0.text.contains("rtnetlink") })
        var off = Self.configuration
        off.wired.enabled = false
        #expect(DoctorTests.section(Diagnosis().diagnose(off), "wired").summary == "disabled")
    }
}
