import Localization
import DeskDaysCore
import Glibc

/// Why the camera cannot be used, as one sentence for the user (docs/design.md, habit 3:
/// the errno is kept, the failing call named).
public struct CameraError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No device node at the path.
        case missing
        /// Another program holds the camera.
        case busy
        /// Not allowed to open the device node.
        case permission
        /// The node is not a streaming capture device.
        case notACamera
        /// The device offers no format DeskDays can turn into luma.
        case unsupportedFormat(offered: [String])
        /// The device went away (unplugged) while in use.
        case gone
        /// Any other failing call.
        case system
    }

    public let kind: Kind
    public let device: String
    public let call: String
    public let errno: Int32

    public init(_ kind: Kind, device: String, call: String = "", errno: Int32 = 0) {
        self.kind = kind
        self.device = device
        self.call = call
        self.errno = errno
    }

    public var description: String {
        switch kind {
        case .missing:
            tr("No camera at \(device): plug one in, or set [qr] device to its path (see `v4l2-ctl --list-devices`).")
        case .busy:
            tr("The camera \(device) is in use by another program: close it (a video call, a browser tab) and try again.")
        case .permission:
            tr("Not allowed to open \(device): add yourself to the 'video' group or install DeskDays' udev rules.")
        case .notACamera:
            tr("\(device) is not a video capture device: set [qr] device to the camera's node.")
        case .unsupportedFormat(let offered):
            tr("The camera \(device) offers no usable format (it has \(offered.joined(separator: ", "))); DeskDays needs YUYV, GREY, MJPEG, YUV420 or RGB24.")
        case .gone:
            tr("The camera \(device) went away (unplugged?).")
        case .system:
            tr("The camera \(device) failed in \(call): \(String(cString: strerror(errno))).")
        }
    }

    /// The kind a failing call's errno means.
    static func from(errno code: Int32, device: String, call: String) -> CameraError {
        let kind: Kind = switch code {
        case ENOENT, ENOTDIR: .missing
        case EBUSY: .busy
        case EACCES, EPERM: .permission
        case ENOTTY: .notACamera
        case ENODEV, ENXIO, EIO: .gone
        default: .system
        }
        return CameraError(kind, device: device, call: call, errno: code)
    }
}
