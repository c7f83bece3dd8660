import NL80211

/// Reads the current link of every station interface, as `iw dev` + `iw
/// link` would: a GET_INTERFACE dump, then for each station a GET_SCAN dump
/// (the associated BSS: BSSID and, since 6.1 often leaves it out of the
/// interface message, the SSID from IE 0) and a GET_STATION dump (signal).
struct LinkReader {
    let socket: NL80211Socket
    let family: UInt16

    func links() throws -> [Link] {
        let interfaces = try socket.dump(family: family, command: NL80211.Command.getInterface)
            .compactMap { try? WirelessInterface(attributes: $0.attributes) }
        var links: [Link] = []
        for interface in interfaces where interface.isStation {
            // The kernel refusing one interface (down, going away) must not hide the others.
            do {
                if let link = try link(of: interface) { links.append(link) }
            } catch NetlinkError.kernel {
                continue
            }
        }
        return links
    }

    private func link(of interface: WirelessInterface) throws -> Link? {
        let scan = try socket.dump(family: family, command: NL80211.Command.getScan, interfaceIndex: interface.index)
            .compactMap { try? ScannedBSS(attributes: $0.attributes) }
        guard interface.ssid != nil || scan.contains(where: \.isAssociated) else { return nil }
        let stations = try socket.dump(family: family, command: NL80211.Command.getStation, interfaceIndex: interface.index)
            .compactMap { try? StationInfo(attributes: $0.attributes) }
        return Link.assemble(interface: interface, scan: scan, stations: stations)
    }
}
