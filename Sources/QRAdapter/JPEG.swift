import Localization
import DeskDaysCore
import CJPEG
import Foundation
import QR

/// The libjpeg funnel (docs/design.md, habit 4): JPEG bytes ↔ luma, errors as messages.
/// libjpeg's error exits are caught in the C shim, never in Swift.
public enum JPEG {
    /// Decodes a JPEG (a photo or one MJPEG camera frame) straight to luma:
    /// libjpeg skips the colour conversion when asked for greyscale.
    public static func decodeLuma(_ bytes: UnsafeRawBufferPointer) throws(JPEGError) -> LumaFrame {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw JPEGError(message: tr("empty JPEG data"))
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = CJPEG_decodeLuma(base, UInt(bytes.count), &pixels, &width, &height, &message, message.count)
        guard status == 0, let pixels else {
            throw JPEGError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(pixels) }
        let count = Int(width) * Int(height)
        return LumaFrame(width: Int(width), height: Int(height),
                         pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Compresses luma to a greyscale JPEG (MJPEG frames for tests and `bench/qr.sh`).
    public static func encode(_ frame: LumaFrame, quality: Int = 85) throws(JPEGError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = frame.pixels.withUnsafeBufferPointer {
            CJPEG_encodeLuma($0.baseAddress, Int32(frame.width), Int32(frame.height), Int32(quality),
                             &output, &size, &message, message.count)
        }
        defer { free(output) }
        guard status == 0, let output else {
            throw JPEGError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}

/// libjpeg's own message for a JPEG it could not handle.
public struct JPEGError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message.isEmpty ? tr("invalid JPEG data") : message }
}
