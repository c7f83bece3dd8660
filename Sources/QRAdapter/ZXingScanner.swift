import CZXing
import QR

/// libzxing (zxing-cpp) with only QR Code enabled, through the C API of
/// Sources/CZXing; its options are made once and reused for every frame.
///
/// The text is ZXing's: byte-mode payloads decoded by the code's ECI, or by
/// ZXing's guess of the character set (Shift_JIS, ISO-8859-1, UTF-8) when
/// the code names none, as the QR specification intends.
///
/// Not thread-safe: one scanner per thread.
public final class ZXingScanner {
    private let options: OpaquePointer

    /// The library's version ("1.4.0").
    public static var version: String { String(cString: ZXing_Version()) }

    public init() {
        options = ZXing_ReaderOptions_new()
        // ZXingReader's defaults (try harder, rotated, downscaled), QR Code only.
        ZXing_ReaderOptions_setFormats(options, ZXing_BarcodeFormat_QRCode)
        ZXing_ReaderOptions_setTryHarder(options, true)
        ZXing_ReaderOptions_setTryRotate(options, true)
        ZXing_ReaderOptions_setTryDownscale(options, true)
    }

    deinit { ZXing_ReaderOptions_delete(options) }

    /// The payloads of every QR code in `frame`, in ZXing's order.
    public func scan(_ frame: LumaFrame) -> [String] {
        frame.pixels.withUnsafeBytes { scan($0, width: frame.width, height: frame.height) }
    }

    /// Scans luma in place (no copy): `pixels` must hold `width × height` bytes
    /// and stay valid for the call.
    public func scan(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [String] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              pixels.count >= width * height,
              let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let view = ZXing_ImageView_new(base, Int32(width), Int32(height), ZXing_ImageFormat_Lum, Int32(width), 1)
        else { return [] }
        defer { ZXing_ImageView_delete(view) }
        guard let barcodes = ZXing_ReadBarcodes(view, options) else { return [] }
        defer { ZXing_Barcodes_delete(barcodes) }
        var payloads: [String] = []
        for index in 0..<ZXing_Barcodes_size(barcodes) {
            guard let barcode = ZXing_Barcodes_at(barcodes, index), ZXing_Barcode_isValid(barcode),
                  let text = ZXing_Barcode_text(barcode) else { continue }
            payloads.append(String(cString: text))
            ZXing_free(text)
        }
        return payloads
    }
}
