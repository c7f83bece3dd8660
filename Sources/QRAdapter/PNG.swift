import Localization
import DeskDaysCore
import CPNG
import Foundation
import QR

/// The libpng funnel (docs/design.md, habit 4), through libpng's "simplified API", which
/// reports errors as return values instead of longjmp.
public enum PNG {
    /// Decodes a PNG in memory to luma. Greyscale PNGs are read as stored;
    /// the others are expanded by libpng to 8-bit RGB, transparency
    /// composited onto white (the paper a code is printed on), and the grey
    /// conversion is ours (`PixelFormat.rgb24`), because libpng's own, done
    /// in linear light, lost a photo that zbarimg reads.
    public static func decodeLuma(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> LumaFrame {
        var image = png_image()
        image.version = CPNG_imageVersion
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw ImageError(path: "", reason: message(of: image))
        }
        let width = Int(image.width), height = Int(image.height)
        var white = png_color(red: 255, green: 255, blue: 255)
        // Plain greyscale is read as it is stored; asking libpng to expand it
        // to RGB costs more than decoding it.
        let grey = image.format & UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) == 0
        let format: PixelFormat = grey ? .grey : .rgb24
        image.format = grey ? UInt32(PNG_FORMAT_GRAY) : UInt32(PNG_FORMAT_RGB)
        let stride = format.minimumBytesPerLine(width: width)
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let ok = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, &white, $0.baseAddress, Int32(stride), nil)
        }
        guard ok != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw ImageError(path: "", reason: reason)
        }
        if grey { return LumaFrame(width: width, height: height, pixels: pixels) }
        guard let frame = pixels.withUnsafeBytes({ PixelFormat.rgb24.luma(of: $0, width: width, height: height) }) else {
            throw ImageError(path: "", reason: tr("empty image"))
        }
        return frame
    }

    /// Writes luma as an 8-bit greyscale PNG file.
    public static func write(_ frame: LumaFrame, to path: String) throws(ImageError) {
        var image = png_image()
        image.version = CPNG_imageVersion
        image.width = UInt32(frame.width)
        image.height = UInt32(frame.height)
        image.format = UInt32(PNG_FORMAT_GRAY)
        let ok = frame.pixels.withUnsafeBytes {
            png_image_write_to_file(&image, path, 0, $0.baseAddress, Int32(frame.width), nil)
        }
        guard ok != 0 else { throw ImageError(path: path, reason: message(of: image)) }
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
