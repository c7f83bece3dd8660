import CNetlinkRoute
import NL80211
import Glibc
import Wired

/// One libnl rtnetlink socket: the single funnel to NETLINK_ROUTE
/// (docs/design.md, habit 4). libnl-route dumps and parses links, routes and
/// neighbours into its objects; `RouteObjectReader` turns those into the
/// pure `Wired` values at once, so nothing past this file sees libnl.
///
/// Confined to one thread; freed in `deinit`.
final class RouteSocket {
    private let socket: OpaquePointer
    /// What the valid-message callback collects during one `receive()`.
    private let inbox = Inbox()

    final class Inbox {
        var objects: [RouteObject] = []
    }

    init() throws {
        guard let socket = nl_socket_alloc() else { throw LibNLError("nl_socket_alloc", LibNLError.outOfMemory) }
        self.socket = socket
        let result = nl_connect(socket, NETLINK_ROUTE)
        if result < 0 {
            nl_socket_free(socket)
            throw WiredUnavailable.netlinkRefused(LibNLError("nl_connect", result).description)
        }
    }

    deinit { nl_socket_free(socket) }

    /// The descriptor to wait on with `poll`.
    var fileDescriptor: Int32 { nl_socket_get_fd(socket) }

    // MARK: - Reading the state

    /// Links, routes (IPv4 and IPv6, every table) and neighbours now: three
    /// dumps, each restarted by libnl when the kernel marks it interrupted.
    func snapshot() throws -> RouteSnapshot {
        let links = try dump("rtnl_link_alloc_cache") { rtnl_link_alloc_cache(socket, AF_UNSPEC, &$0) }
        let routes = try dump("rtnl_route_alloc_cache") { rtnl_route_alloc_cache(socket, AF_UNSPEC, 0, &$0) }
        let neighbours = try dump("rtnl_neigh_alloc_cache") { rtnl_neigh_alloc_cache(socket, &$0) }
        return RouteSnapshot(
            links: links.compactMap { if case .link(let link) = $0 { link } else { nil } },
            routes: routes.compactMap { if case .route(let route) = $0 { route } else { nil } },
            neighbours: neighbours.compactMap { if case .neighbour(let neighbour) = $0 { neighbour } else { nil } })
    }

    private func dump(_ call: String, _ fill: (inout OpaquePointer?) -> Int32) throws -> [RouteObject] {
        var cache: OpaquePointer?
        let result = fill(&cache)
        guard result >= 0, let cache else { throw LibNLError(call, result) }
        defer { nl_cache_free(cache) }
        var objects: [RouteObject] = []
        var object = nl_cache_get_first(cache)
        while let current = object {
            if let value = RouteObjectReader.read(current) { objects.append(value) }
            object = nl_cache_get_next(current)
        }
        return objects
    }

    // MARK: - Following events

    /// Joins the multicast groups of links, neighbours and IPv4/IPv6
    /// routes, so their changes arrive on this socket as events.
    /// Notifications carry no sequence numbers of ours: checking is off.
    func listen() throws {
        nl_socket_disable_seq_check(socket)
        // Large dumps and bursts (a dock bringing up several links) must not be cut.
        nl_socket_enable_msg_peek(socket)
        _ = nl_socket_set_buffer_size(socket, 1 << 20, 0)
        for group in [RTNLGRP_LINK, RTNLGRP_NEIGH, RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE] {
            let result = nl_socket_add_membership(socket, Int32(group.rawValue))
            guard result >= 0 else { throw LibNLError("nl_socket_add_membership", result) }
        }
        let context = Unmanaged.passUnretained(inbox).toOpaque()
        let result = nl_socket_modify_cb(socket, NL_CB_VALID, NL_CB_CUSTOM, { message, context in
            guard let message, let context else { return Int32(NL_SKIP.rawValue) }
            _ = nl_msg_parse(message, { object, context in
                guard let object, let context else { return }
                let inbox = Unmanaged<Inbox>.fromOpaque(context).takeUnretainedValue()
                if let value = RouteObjectReader.read(object) { inbox.objects.append(value) }
            }, context)
            return Int32(NL_OK.rawValue)
        }, context)
        guard result >= 0 else { throw LibNLError("nl_socket_modify_cb", result) }
    }

    /// Receives one datagram of events (blocking) as values; messages libnl
    /// cannot parse are skipped. An overrun (ENOBUFS: events were lost)
    /// throws, and the caller re-reads everything.
    func receive() throws -> [RouteObject] {
        inbox.objects = []
        let result = nl_recvmsgs_default(socket)
        guard result >= 0 else { throw LibNLError("nl_recvmsgs", result) }
        return inbox.objects
    }
}
