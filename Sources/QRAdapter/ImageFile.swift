import Localization
import DeskDaysCore
import Foundation
import QR

/// Image files given to `deskdays qr scan`: PNG or JPEG, told apart by their
/// first bytes (not the name), reduced to luma for the decoders (ZXing, zbar).
public enum ImageFile {
    public static func loadLuma(path: String) throws(ImageError) -> LumaFrame {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? tr("cannot be read; check its permissions") : tr("does not exist; check the path")
            throw ImageError(path: path, reason: reason)
        }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<LumaFrame, ImageError> in
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                do throws(ImageError) { return .success(try PNG.decodeLuma(bytes)) } catch {
                    return .failure(ImageError(path: path, reason: tr("is not a readable PNG (\(error.reason))")))
                }
            }
            if bytes.starts(with: [0xFF, 0xD8]) {
                do throws(JPEGError) { return .success(try JPEG.decodeLuma(bytes)) } catch {
                    return .failure(ImageError(path: path, reason: tr("is not a readable JPEG (\(error))")))
                }
            }
            return .failure(ImageError(path: path, reason: tr("is neither PNG nor JPEG")))
        }
        return try result.get()
    }
}
