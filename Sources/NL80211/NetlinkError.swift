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
