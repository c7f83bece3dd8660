#if canImport(Glibc)
import Glibc
#endif

/// A failed serial-port call: which call, and the errno it left, described
/// by the C library's own `strerror` (shaped like swift-system's `Errno`).
public struct SerialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed (`open`, `tcsetattr`, …).
    public let call: String
    public let code: Int32

    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// The baud rate is not one termios knows in the range DeskDays supports.
    public static func unsupportedBaud(_ baud: Int) -> SerialError {
        SerialError("baud \(baud) (use 4800, 9600, 19200, 38400, 57600 or 115200)", code: EINVAL)
    }

    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
