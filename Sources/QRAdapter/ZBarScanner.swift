import CZBar
import QR

/// libzbar's image scanner with only QR Code enabled, created once and reused
/// for every frame (creating one costs more than scanning a small frame).
///
/// Not thread-safe, like the C object it owns: one scanner per thread.
public final class ZBarScanner {
    private let scanner: OpaquePointer
    private let image: OpaquePointer

    public init() {
        scanner = zbar_image_scanner_create()
        image = zbar_image_create()
        // Symbology 0 (ZBAR_NONE) addresses every symbology: switch all off, then QR on.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        zbar_image_set_format(image, CZBar_Y800)
    }

    deinit {
        zbar_image_destroy(image)
        zbar_image_scanner_destroy(scanner)
    }

    /// The payloads of every QR code in `frame`, in zbar's order.
    public func scan(_ frame: LumaFrame) -> [String] {
        frame.pixels.withUnsafeBytes { scan($0, width: frame.width, height: frame.height) }
    }

    /// Scans luma in place (no copy): `pixels` must hold `width × height` bytes
    /// and stay valid for the call.
    public func scan(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [String] {
        guard width > 0, height > 0, pixels.count >= width * height, let base = pixels.baseAddress else { return [] }
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        // No cleanup handler: zbar only borrows the bytes for this call.
        zbar_image_set_data(image, base, UInt(width * height), nil)
        defer { zbar_image_set_data(image, nil, 0, nil) }
        guard zbar_scan_image(scanner, image) > 0 else { return [] }
        var payloads: [String] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                let length = Int(zbar_symbol_get_data_length(current))
                payloads.append(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
            }
            symbol = zbar_symbol_next(current)
        }
        return payloads
    }
}
