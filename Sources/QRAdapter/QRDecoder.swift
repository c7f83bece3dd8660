import CZBar
import QR

/// The QR decoder every path uses (`qr scan`, `qr scan --camera`, `checkin
/// --qr`, `enroll qr`, the watch mode): ZXing first; zbar only when ZXing
/// finds nothing in the frame. On ZXing's photo set each reads images the
/// other misses (docs/performance.md); asking zbar second costs nothing on
/// the frames ZXing decodes.
///
/// Not thread-safe: one decoder per thread.
public final class QRDecoder {
    private let zxing = ZXingScanner()
    private let zbar = ZBarScanner()

    public init() {}

    /// The decoders this build has, first to last, with their versions.
    public static var decoders: [String] {
        var major: UInt32 = 0, minor: UInt32 = 0, patch: UInt32 = 0
        zbar_version(&major, &minor, &patch)
        return ["ZXing \(ZXingScanner.version) (libzxing)", "zbar \(major).\(minor).\(patch) (libzbar)"]
    }

    /// The payloads of every QR code in `frame`, in the deciding decoder's order.
    public func scan(_ frame: LumaFrame) -> [String] {
        frame.pixels.withUnsafeBytes { scan($0, width: frame.width, height: frame.height) }
    }

    /// Scans luma in place (no copy): `pixels` must hold `width × height`
    /// bytes and stay valid for the call.
    public func scan(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [String] {
        let found = zxing.scan(pixels, width: width, height: height)
        return found.isEmpty ? zbar.scan(pixels, width: width, height: height) : found
    }
}
