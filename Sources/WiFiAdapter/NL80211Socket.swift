import CNetlink
import Glibc
import NL80211

/// One libnl generic-netlink socket: the single funnel to nl80211 (docs/design.md,
/// habit 4). Every libnl call and its error conversion happens here; replies come
/// back as raw bytes and are parsed by the pure `NL80211` module.
///
/// Confined to the adapter's device thread; freed in `deinit`.
final class NL80211Socket {
    private let socket: OpaquePointer

    /// Opens and connects a generic-netlink socket with auto-ACK off: libnl
    /// would otherwise ask for an ACK on every request, and an unread ACK
    /// can end the next request's dump early (docs/testing.md pitfall).
    init() throws {
        guard let socket = nl_socket_alloc() else { throw LibNLError("nl_socket_alloc", LibNLError.outOfMemory) }
        self.socket = socket
        nl_socket_disable_auto_ack(socket)
        // Scan dumps can exceed a page; peeking lets nl_recv size its buffer.
        nl_socket_enable_msg_peek(socket)
        let result = genl_connect(socket)
        if result < 0 {
            nl_socket_free(socket)
            throw WiFiUnavailable.netlinkRefused(LibNLError("genl_connect", result).description)
        }
    }

    deinit { nl_socket_free(socket) }

    /// The descriptor to wait on with `poll`.
    var fileDescriptor: Int32 { nl_socket_get_fd(socket) }

    /// The id of a generic-netlink family; `noNL80211` when it is absent.
    func resolve(family name: String) throws -> UInt16 {
        let result = genl_ctrl_resolve(socket, name)
        if result == -LibNLError.objectNotFound { throw WiFiUnavailable.noNL80211 }
        guard result >= 0 else { throw LibNLError("genl_ctrl_resolve", result) }
        return UInt16(result)
    }

    /// The id of a family's multicast group. Asked on a socket that is in
    /// no group: libnl's lookup would read a notification as its reply.
    func groupID(family: String, group: String) throws -> Int32 {
        let id = genl_ctrl_resolve_grp(socket, family, group)
        if id == -LibNLError.objectNotFound { throw WiFiUnavailable.noNL80211 }
        guard id >= 0 else { throw LibNLError("genl_ctrl_resolve_grp", id) }
        return id
    }

    /// Joins (or leaves) a multicast group, so its events arrive on this socket.
    func membership(_ group: Int32, join: Bool = true) throws {
        let result = join ? nl_socket_add_membership(socket, group) : nl_socket_drop_membership(socket, group)
        guard result >= 0 else { throw LibNLError(join ? "nl_socket_add_membership" : "nl_socket_drop_membership", result) }
    }

    /// Sends a dump request (`NLM_F_DUMP`) and collects every reply message
    /// up to NLMSG_DONE. A dump the kernel marks interrupted (the list
    /// changed meanwhile) is asked again, up to three times.
    func dump(family: UInt16, command: UInt8, interfaceIndex: UInt32? = nil) throws -> [GenericNetlinkMessage] {
        var attempt = 0
        while true {
            attempt += 1
            let (messages, interrupted) = try dumpOnce(family: family, command: command, interfaceIndex: interfaceIndex)
            if !interrupted || attempt >= 3 { return messages }
        }
    }

    private func dumpOnce(family: UInt16, command: UInt8, interfaceIndex: UInt32?) throws -> ([GenericNetlinkMessage], Bool) {
        guard let message = nlmsg_alloc() else { throw LibNLError("nlmsg_alloc", LibNLError.outOfMemory) }
        defer { nlmsg_free(message) }
        var result = CNetlink_genlmsg_put(message, Int32(family), NLM_F_DUMP, command)
        guard result >= 0 else { throw LibNLError("genlmsg_put", result) }
        if let interfaceIndex {
            result = nla_put_u32(message, Int32(NL80211.Attribute.ifindex), interfaceIndex)
            guard result >= 0 else { throw LibNLError("nla_put_u32", result) }
        }
        result = nl_send_auto(socket, message)
        guard result >= 0 else { throw LibNLError("nl_send_auto", result) }
        let sequence = CNetlink_msg_seq(message)

        var replies: [GenericNetlinkMessage] = []
        var interrupted = false
        while true {
            for reply in try receive() where reply.sequence == sequence {
                switch reply.type {
                case NetlinkMessage.typeDone:
                    return (replies, interrupted)
                case NetlinkMessage.typeError:
                    let code = try reply.errorCode()
                    if code != 0 { throw NetlinkError.kernel(errno: code) }
                case NetlinkMessage.typeOverrun:
                    interrupted = true
                default:
                    if reply.flags & NetlinkMessage.flagDumpInterrupted != 0 { interrupted = true }
                    // One unreadable record is skipped, not the whole dump.
                    if let generic = try? reply.generic() { replies.append(generic) }
                }
            }
        }
    }

    /// Receives one datagram (blocking) and splits it into messages.
    func receive() throws -> [NetlinkMessage] {
        var peer = sockaddr_nl()
        var buffer: UnsafeMutablePointer<UInt8>?
        let count = nl_recv(socket, &peer, &buffer, nil)
        defer { if let buffer { CNetlink_free_buffer(buffer) } }
        guard count > 0, let buffer else { throw LibNLError("nl_recv", count == 0 ? Int32(NLE_BAD_SOCK) : count) }
        return try NetlinkMessage.parseAll(UnsafeBufferPointer(start: buffer, count: Int(count)))
    }
}
