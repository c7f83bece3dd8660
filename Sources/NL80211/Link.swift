/// The current association of one station interface: what the adapter
/// matches against `[[wifi.networks]]`. Never logged or stored as a whole
/// (it holds the SSID and BSSID).
public struct Link: Sendable, Equatable {
    public var interfaceIndex: UInt32
    public var interfaceName: String
    public var ssid: SSID
    public var bssid: MACAddress?
    public var signalDBm: Int?
    /// Every access point of the same network in the last scan (a mesh or a
    /// building of them), the associated one first; for `enroll wifi --pin`.
    public var networkBSSIDs: [MACAddress]

    public init(interfaceIndex: UInt32, interfaceName: String, ssid: SSID, bssid: MACAddress? = nil, signalDBm: Int? = nil,
                networkBSSIDs: [MACAddress] = []) {
        self.interfaceIndex = interfaceIndex
        self.interfaceName = interfaceName
        self.ssid = ssid
        self.bssid = bssid
        self.signalDBm = signalDBm
        self.networkBSSIDs = networkBSSIDs
    }

    /// Assembles a station's link the way `iw link` does: the BSS the scan
    /// dump marks associated gives BSSID and (if the interface message has
    /// none) the SSID; the station entry for that BSSID gives the signal.
    /// Nil when the interface is not a connected station.
    public static func assemble(interface: WirelessInterface, scan: [ScannedBSS], stations: [StationInfo]) -> Link? {
        guard interface.isStation else { return nil }
        let associated = scan.first { $0.isAssociated && ($0.interfaceIndex == nil || $0.interfaceIndex == interface.index) }
        guard let ssid = interface.ssid ?? associated?.ssid, associated != nil || interface.ssid != nil else { return nil }
        let bssid = associated?.bssid
        let station = stations.first { $0.mac == bssid } ?? (bssid == nil ? stations.first : nil)
        var network = bssid.map { [$0] } ?? []
        for entry in scan where entry.ssid == ssid && !network.contains(entry.bssid) { network.append(entry.bssid) }
        return Link(interfaceIndex: interface.index, interfaceName: interface.displayName, ssid: ssid,
                    bssid: bssid, signalDBm: station?.signalDBm ?? associated?.signalDBm, networkBSSIDs: network)
    }
}
