import NL80211
import Testing

/// GET_INTERFACE / GET_SCAN / GET_STATION replies turned into a link, the
/// way `iw link` reads it.
@Suite struct LinkTests {
    static let bssid: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x00]

    func generic(_ bytes: [UInt8]) throws -> GenericNetlinkMessage {
        try #require(try NetlinkMessage.parseAll(bytes).first).generic()
    }

    @Test("interface type, name, MAC", arguments: [NL80211.InterfaceType.station, .accessPoint, .monitor, .p2pClient])
    func interfaceType(type: NL80211.InterfaceType) throws {
        let interface = try WirelessInterface(attributes: generic(Build.interface(index: 3, name: "wlan1", type: type)).attributes)
        #expect(interface.type == type)
        #expect(interface.index == 3)
        #expect(interface.displayName == "wlan1")
        #expect(interface.mac?.description == "02:00:00:00:01:00")
        #expect(interface.isStation == (type == .station || type == .p2pClient))
    }

    @Test func ssidFromScanWhenInterfaceHasNone() throws {
        let interface = try WirelessInterface(attributes: generic(Build.interface(index: 3, name: "wlan1", type: .station)).attributes)
        #expect(interface.ssid == nil)
        let scan = [
            try ScannedBSS(attributes: generic(Build.bss(bssid: [2, 0, 0, 0, 9, 9], ssidElement: Array("Elsewhere".utf8), status: nil)).attributes),
            try ScannedBSS(attributes: generic(Build.bss(bssid: Self.bssid, ssidElement: Array("Office-5G".utf8), status: .associated)).attributes),
        ]
        let stations = [try StationInfo(attributes: generic(Build.station(mac: Self.bssid, signal: -42, average: -44)).attributes)]
        let link = try #require(Link.assemble(interface: interface, scan: scan, stations: stations))
        #expect(link.ssid == SSID("Office-5G"))
        #expect(link.bssid == MACAddress(bytes: Self.bssid))
        #expect(link.signalDBm == -44)
    }

    /// A mesh: every access point of the connected network in the scan,
    /// the associated one first; other networks' access points left out.
    @Test func theNetworksAccessPointsAreCollectedForPinning() throws {
        let interface = try WirelessInterface(attributes: generic(Build.interface(index: 3, name: "wlan1", type: .station)).attributes)
        let scan = [
            try ScannedBSS(attributes: generic(Build.bss(bssid: [2, 0, 0, 0, 7, 1], ssidElement: Array("Office-5G".utf8), status: nil)).attributes),
            try ScannedBSS(attributes: generic(Build.bss(bssid: [2, 0, 0, 0, 9, 9], ssidElement: Array("Elsewhere".utf8), status: nil)).attributes),
            try ScannedBSS(attributes: generic(Build.bss(bssid: Self.bssid, ssidElement: Array("Office-5G".utf8), status: .associated)).attributes),
            try ScannedBSS(attributes: generic(Build.bss(bssid: [2, 0, 0, 0, 7, 2], ssidElement: Array("Office-5G".utf8), status: nil)).attributes),
        ]
        let link = try #require(Link.assemble(interface: interface, scan: scan, stations: []))
        #expect(link.networkBSSIDs.map(\.description) == ["02:00:00:00:00:00", "02:00:00:00:07:01", "02:00:00:00:07:02"])
    }

    @Test func notConnectedIsNoLink() throws {
        let interface = try WirelessInterface(attributes: generic(Build.interface(index: 3, name: "wlan1", type: .station)).attributes)
        let scan = [try ScannedBSS(attributes: generic(Build.bss(bssid: Self.bssid, ssidElement: Array("Office-5G".utf8), status: nil)).attributes)]
        #expect(Link.assemble(interface: interface, scan: scan, stations: []) == nil)
        let ap = try WirelessInterface(attributes: generic(Build.interface(index: 2, name: "wlan0", type: .accessPoint, ssid: Array("Office-5G".utf8))).attributes)
        #expect(Link.assemble(interface: ap, scan: [], stations: []) == nil)
    }

    @Test func interfaceSSIDWinsWhenPresent() throws {
        let interface = try WirelessInterface(attributes: generic(Build.interface(index: 3, name: "wlan1", type: .station, ssid: [0xFF, 0x00, 0x41])).attributes)
        let link = try #require(Link.assemble(interface: interface, scan: [], stations: [StationInfo(mac: MACAddress(bytes: Self.bssid)!, signalDBm: -60)]))
        #expect(link.ssid.bytes == [0xFF, 0x00, 0x41])
        #expect(link.signalDBm == -60)
    }

    @Test func ssidsAreBytesPrintedEscaped() {
        #expect(SSID(bytes: [0x43, 0x61, 0x66, 0xE9])?.description == "Caf\\xe9")   // Latin-1 "Café"
        #expect(SSID(bytes: [0x43, 0x61, 0x66, 0xE9])?.utf8String == nil)
        #expect(SSID("Café")?.bytes == [0x43, 0x61, 0x66, 0xC3, 0xA9])
        #expect(SSID("Café") != SSID(bytes: [0x43, 0x61, 0x66, 0xE9]))
        #expect(SSID(bytes: [0x5C, 0x0A, 0x20])?.description == "\\x5c\\x0a ")
        #expect(SSID(bytes: [UInt8](repeating: 0x41, count: 33)) == nil)
        #expect(SSID(bytes: []) != nil)
    }

    @Test func macAddressText() {
        #expect(MACAddress("AA:bb:0c:dd:ee:ff")?.description == "aa:bb:0c:dd:ee:ff")
        #expect(MACAddress("aa:bb:cc:dd:ee") == nil)
        #expect(MACAddress("aa:bb:cc:dd:ee:gg") == nil)
        #expect(MACAddress(bytes: [1, 2, 3]) == nil)
    }
}
