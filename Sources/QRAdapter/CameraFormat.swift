import CV4L2
import QR

/// A capture format DeskDays can turn into luma, with its V4L2 code.
/// Preference order (`preferred`): formats whose luma is free first (YUYV is
/// what nearly every UVC webcam sends uncompressed, GREY is luma already),
/// then MJPEG decoded straight to grey by libjpeg (cheaper than a colour
/// conversion), then YUV420 and RGB24, which libv4l2 can make from anything else.
public enum CameraFormat: Sendable, Equatable, CustomStringConvertible {
    case raw(PixelFormat)
    case mjpeg

    public static let preferred: [CameraFormat] = [.raw(.yuyv), .raw(.grey), .mjpeg, .raw(.yuv420), .raw(.rgb24)]

    public var fourcc: UInt32 {
        switch self {
        case .raw(.yuyv): CV4L2_PIX_FMT_YUYV
        case .raw(.grey): CV4L2_PIX_FMT_GREY
        case .raw(.yuv420): CV4L2_PIX_FMT_YUV420
        case .raw(.rgb24): CV4L2_PIX_FMT_RGB24
        case .mjpeg: CV4L2_PIX_FMT_MJPEG
        }
    }

    public init?(fourcc: UInt32) {
        guard let format = Self.preferred.first(where: { $0.fourcc == fourcc }) else { return nil }
        self = format
    }

    public var description: String {
        switch self {
        case .raw(let format): format.rawValue.uppercased()
        case .mjpeg: "MJPEG"
        }
    }

    /// One captured buffer to luma: the frame path shared by the camera, the
    /// tests' synthetic frames and the benchmark.
    ///
    /// - Parameter bytes: the `bytesused` part of the buffer.
    public func luma(of bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int) throws(FrameError) -> LumaFrame {
        switch self {
        case .raw(let format):
            guard let frame = format.luma(of: bytes, width: width, height: height, bytesPerLine: bytesPerLine) else {
                throw FrameError(reason: "a \(self) frame of \(bytes.count) bytes is too short for \(width)×\(height)")
            }
            return frame
        case .mjpeg:
            do { return try JPEG.decodeLuma(bytes) } catch { throw FrameError(reason: "a broken MJPEG frame (\(error))") }
        }
    }
}

/// A captured buffer that does not hold a usable frame (skipped, not fatal).
public struct FrameError: Error, CustomStringConvertible, Sendable {
    public let reason: String
    public var description: String { reason }
}

/// Four-character code as text, for messages (`YUYV`, `MJPG`).
func fourccText(_ code: UInt32) -> String {
    String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }, as: UTF8.self)
}
