/// A generic-netlink family as the controller describes it
/// (`CTRL_CMD_NEWFAMILY`): its id and its multicast groups.
public struct ControlFamily: Sendable, Equatable {
    public var name: [UInt8]
    public var id: UInt16
    public var multicastGroups: [String: UInt32]

    public init(attributes: [NetlinkAttribute]) throws {
        guard let id = attributes.first(GenericNetlinkControl.attributeFamilyID) else {
            throw NetlinkError.badAttribute(type: GenericNetlinkControl.attributeFamilyID, length: 0)
        }
        self.id = try id.uint16()
        name = attributes.first(GenericNetlinkControl.attributeFamilyName)?.cString() ?? []
        var groups: [String: UInt32] = [:]
        for group in try attributes.first(GenericNetlinkControl.attributeMulticastGroups)?.nested() ?? [] {
            let fields = try group.nested()
            if let name = fields.first(GenericNetlinkControl.groupName), let id = fields.first(GenericNetlinkControl.groupID) {
                groups[String(decoding: name.cString(), as: UTF8.self)] = try id.uint32()
            }
        }
        multicastGroups = groups
    }
}
