import CNetlinkRoute
import Glibc
import Wired

/// libnl-route objects (`route/link`, `route/route`, `route/neigh`) as the
/// pure values of `Wired`. The one place that reads libnl's getters.
enum RouteObjectReader {
    static func read(_ object: OpaquePointer) -> RouteObject? {
        let change: RouteObject.Change
        switch Int(nl_object_get_msgtype(object)) {
        case Int(RTM_DELLINK), Int(RTM_DELROUTE), Int(RTM_DELNEIGH): change = .removed
        default: change = .added
        }
        switch String(cString: nl_object_get_type(object)) {
        case "route/link":
            let name = rtnl_link_get_name(object).map { String(cString: $0) } ?? ""
            return .link(LinkEntry(index: rtnl_link_get_ifindex(object), name: name,
                                   flags: UInt32(rtnl_link_get_flags(object)), change: change))
        case "route/route":
            guard let family = family(Int32(rtnl_route_get_family(object))) else { return nil }
            let prefix = rtnl_route_get_dst(object).map { UInt8(clamping: nl_addr_get_prefixlen($0)) } ?? 0
            var hops: [RouteEntry.NextHop] = []
            for index in 0..<max(0, rtnl_route_get_nnexthops(object)) {
                guard let hop = rtnl_route_nexthop_n(object, index) else { continue }
                hops.append(.init(interfaceIndex: rtnl_route_nh_get_ifindex(hop),
                                  gateway: rtnl_route_nh_get_gateway(hop).flatMap(address)))
            }
            return .route(RouteEntry(family: family, prefixLength: prefix, table: rtnl_route_get_table(object),
                                     type: rtnl_route_get_type(object), nextHops: hops, change: change))
        case "route/neigh":
            guard let destination = rtnl_neigh_get_dst(object).flatMap(address) else { return nil }
            let state = rtnl_neigh_get_state(object)
            return .neighbour(NeighbourEntry(interfaceIndex: Int32(rtnl_neigh_get_ifindex(object)), address: destination,
                                             lladdr: rtnl_neigh_get_lladdr(object).map(bytes),
                                             state: state < 0 ? 0 : UInt16(truncatingIfNeeded: state), change: change))
        default:
            return nil
        }
    }

    static func family(_ value: Int32) -> IPAddress.Family? {
        switch value {
        case AF_INET: .ipv4
        case AF_INET6: .ipv6
        default: nil
        }
    }

    static func address(_ address: OpaquePointer) -> IPAddress? {
        guard let family = family(nl_addr_get_family(address)) else { return nil }
        return IPAddress(family: family, bytes: bytes(address))
    }

    static func bytes(_ address: OpaquePointer) -> [UInt8] {
        let count = Int(nl_addr_get_len(address))
        guard count > 0, let start = nl_addr_get_binary_addr(address) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }
}
