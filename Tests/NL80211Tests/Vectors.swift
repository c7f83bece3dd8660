import Foundation

/// The nl80211 byte vectors of Tests/Fixtures/netlink (see PROVENANCE):
/// payloads from the tests of wl-nl80211, PureSwift/WLAN and mdlayher/wifi.
struct Vector: Sendable {
    /// Where the bytes start: a bare attribute stream, a generic-netlink
    /// payload, a whole netlink message, or something that is not netlink.
    enum Layout { case attributes, generic, message, opaque }

    let index: Int
    let test: String
    let layout: Layout
    let bytes: [UInt8]
    /// `our_annotation.attrs`: (type, nla_len) of each top-level attribute.
    let attributes: [(type: Int, length: Int)]
    let genericCommand: Int?
    /// `nlmsghdr` type and sequence, for whole messages.
    let headerType: Int?
    let headerSequence: Int?

    static let all: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/netlink/netlink_vectors.json")
        let root = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (root["vectors"] as! [[String: Any]]).enumerated().map { index, entry in
            let layoutName = entry["layout_assumed"] as! String
            let layout: Layout = switch layoutName {
            case "nla": .attributes
            case "genl": .generic
            case "nlmsg": .message
            default: .opaque
            }
            let annotation = entry["our_annotation"] as? [String: Any] ?? [:]
            let attributes = (annotation["attrs"] as? [[String: Any]] ?? []).map { ($0["type"] as! Int, $0["len"] as! Int) }
            return Vector(index: index, test: entry["test"] as! String, layout: layout,
                          bytes: hex(entry["bytes_hex"] as! String), attributes: attributes,
                          genericCommand: annotation["genl_cmd"] as? Int,
                          headerType: (annotation["nlmsghdr"] as? [String: Any])?["nlmsg_type"] as? Int,
                          headerSequence: (annotation["nlmsghdr"] as? [String: Any])?["seq"] as? Int)
        }
    }()

    static func named(_ test: String) -> [Vector] { all.filter { $0.test == test } }
}

func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
