/// Why a netlink buffer was rejected. Bytes from the kernel are trusted no
/// more than bytes from a file: every length is checked before it is used.
public enum NetlinkError: Error, Equatable, Sendable {
    /// Fewer bytes than the header or the declared length needs.
    case truncated(needed: Int, available: Int)
    /// A length field smaller than its own header.
    case badLength(Int)
    /// An attribute whose payload has the wrong size for its type.
    case badAttribute(type: UInt16, length: Int)
    /// The kernel answered a request with this errno (positive).
    case kernel(errno: Int32)
}

/// A libnl return code (`NLE_*`, positive), named after the call that
/// failed, with libnl's own words for it (`nl_geterror`, given by the
/// adapter that links libnl): the Wi-Fi and wired adapters' one error type
/// for libnl calls (docs/design.md, habit 3).
public struct LibNLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let code: Int32
    /// libnl's sentence for `code`.
    public let message: String

    public init(_ call: String, _ result: Int32, describe: (Int32) -> String) {
        self.call = call
        code = result < 0 ? -result : result
        message = describe(code)
    }

    public var description: String { "\(call): \(message)" }
}
