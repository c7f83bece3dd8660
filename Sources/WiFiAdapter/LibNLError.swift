import CNetlink

/// A libnl return code (`NLE_*`, positive), named after the call that
/// failed, described by libnl's own `nl_geterror` (docs/design.md, habit 3).
public struct LibNLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let code: Int32

    init(_ call: String, _ result: Int32) {
        self.call = call
        code = result < 0 ? -result : result
    }

    public static let objectNotFound = Int32(NLE_OBJ_NOTFOUND)
    public static let permission = Int32(NLE_PERM)
    public static let notSupported = Int32(NLE_OPNOTSUPP)
    public static let afNotSupported = Int32(NLE_AF_NOSUPPORT)
    public static let outOfMemory = Int32(NLE_NOMEM)

    public var description: String { "\(call): " + String(cString: nl_geterror(code)) }
}
