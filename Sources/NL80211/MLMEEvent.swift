/// What one `mlme` multicast message means for the link.
public enum MLMEEvent: Sendable, Equatable {
    case connect(interfaceIndex: UInt32?, success: Bool)
    case roam(interfaceIndex: UInt32?)
    case disconnect(interfaceIndex: UInt32?)
    /// AUTHENTICATE, ASSOCIATE and the rest: not a change of link by itself.
    case other(command: UInt8)

    /// Classifies an nl80211 message; CONNECT counts as success unless
    /// STATUS_CODE says otherwise.
    public init(_ message: GenericNetlinkMessage) throws {
        let index = try message.attributes.first(NL80211.Attribute.ifindex)?.uint32()
        switch message.command {
        case NL80211.Command.connect:
            let status = try message.attributes.first(NL80211.Attribute.statusCode)?.uint16()
            self = .connect(interfaceIndex: index, success: (status ?? 0) == 0)
        case NL80211.Command.roam: self = .roam(interfaceIndex: index)
        case NL80211.Command.disconnect: self = .disconnect(interfaceIndex: index)
        default: self = .other(command: message.command)
        }
    }

    /// Whether the adapter should re-read the links.
    public var changesLink: Bool {
        if case .other = self { return false }
        return true
    }
}
