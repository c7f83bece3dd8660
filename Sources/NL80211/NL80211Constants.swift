/// The numbers of `linux/nl80211.h` and `linux/genetlink.h` this module
/// reads. Only what the Wi-Fi adapter needs; values are kernel ABI and
/// never change.
public enum NL80211 {
    /// `enum nl80211_commands`.
    public enum Command {
        public static let getInterface: UInt8 = 5
        public static let newInterface: UInt8 = 7
        public static let getStation: UInt8 = 17
        public static let newStation: UInt8 = 19
        public static let getScan: UInt8 = 32
        public static let newScanResults: UInt8 = 34
        public static let authenticate: UInt8 = 37
        public static let associate: UInt8 = 38
        public static let deauthenticate: UInt8 = 39
        public static let disassociate: UInt8 = 40
        public static let connect: UInt8 = 46
        public static let roam: UInt8 = 47
        public static let disconnect: UInt8 = 48
    }

    /// `enum nl80211_attrs`.
    public enum Attribute {
        public static let wiphy: UInt16 = 1
        public static let ifindex: UInt16 = 3
        public static let ifname: UInt16 = 4
        public static let iftype: UInt16 = 5
        public static let mac: UInt16 = 6
        public static let stationInfo: UInt16 = 21
        public static let generation: UInt16 = 46
        public static let bss: UInt16 = 47
        public static let ssid: UInt16 = 52
        public static let statusCode: UInt16 = 72
        public static let wdev: UInt16 = 153
    }

    /// `enum nl80211_bss` (nested in `NL80211_ATTR_BSS`).
    public enum BSSAttribute {
        public static let bssid: UInt16 = 1
        public static let frequency: UInt16 = 2
        public static let informationElements: UInt16 = 6
        public static let signalMBm: UInt16 = 7
        public static let status: UInt16 = 9
        public static let beaconIEs: UInt16 = 11
    }

    /// `enum nl80211_bss_status`.
    public enum BSSStatus: UInt32, Sendable {
        case authenticated = 0, associated = 1, ibssJoined = 2
    }

    /// `enum nl80211_sta_info` (nested in `NL80211_ATTR_STA_INFO`).
    public enum StationInfoAttribute {
        public static let signal: UInt16 = 7
        public static let signalAverage: UInt16 = 13
    }

    /// `enum nl80211_iftype`.
    public enum InterfaceType: UInt32, Sendable {
        case unspecified = 0, adhoc, station, accessPoint, apVLAN, wds, monitor, meshPoint, p2pClient, p2pGO, p2pDevice, ocb, nan
    }

    /// The multicast group that carries CONNECT, DISCONNECT and ROAM.
    public static let mlmeGroup = "mlme"
    public static let familyName = "nl80211"
}

/// `linux/genetlink.h`: the controller family that resolves names to ids.
public enum GenericNetlinkControl {
    public static let familyID: UInt16 = 0x10          // GENL_ID_CTRL
    public static let commandNewFamily: UInt8 = 1      // CTRL_CMD_NEWFAMILY
    public static let commandGetFamily: UInt8 = 3      // CTRL_CMD_GETFAMILY
    public static let attributeFamilyID: UInt16 = 1    // CTRL_ATTR_FAMILY_ID
    public static let attributeFamilyName: UInt16 = 2  // CTRL_ATTR_FAMILY_NAME
    public static let attributeMulticastGroups: UInt16 = 7  // CTRL_ATTR_MCAST_GROUPS
    public static let groupName: UInt16 = 1            // CTRL_ATTR_MCAST_GRP_NAME
    public static let groupID: UInt16 = 2              // CTRL_ATTR_MCAST_GRP_ID
}
