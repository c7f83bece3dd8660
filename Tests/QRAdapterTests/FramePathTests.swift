import CJPEG
import Foundation
import QR
import QRAdapter
import Testing

/// The camera frame path without a camera: a code made by libqrencode,
/// placed in camera-sized frames, sent through each capture format's luma
/// conversion and the decoders (ZXing, zbar, and both in turn).
struct FramePathTests {
    static let payload = "deskdays:office:hq"

    static func frame(width: Int = 640, height: Int = 480, scale: Int = 6) throws -> LumaFrame {
        Support.canvas(try QRCodeImage(payload: payload).luma(scale: scale), width: width, height: height)
    }

    @Test(arguments: [(640, 480, 0), (640, 480, 1536), (1280, 720, 0)])
    func yuyvFramesDecode(width: Int, height: Int, stride: Int) throws {
        let frame = try Self.frame(width: width, height: height)
        let bytes = Support.yuyv(frame, stride: stride == 0 ? nil : stride)
        let luma = try bytes.withUnsafeBytes {
            try CameraFormat.raw(.yuyv).luma(of: $0, width: width, height: height, bytesPerLine: stride == 0 ? width * 2 : stride)
        }
        #expect(luma == frame)
        #expect(ZBarScanner().scan(luma) == [Self.payload])
    }

    @Test func mjpegFramesDecode() throws {
        let frame = try Self.frame()
        let jpeg = try JPEG.encode(frame, quality: 75)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let luma = try jpeg.withUnsafeBytes { try CameraFormat.mjpeg.luma(of: $0, width: 640, height: 480, bytesPerLine: 0) }
        #expect(luma.width == 640 && luma.height == 480)
        #expect(ZBarScanner().scan(luma) == [Self.payload])
    }

    @Test func brokenMJPEGFrameIsAFrameErrorNotACrash() throws {
        let jpeg = try JPEG.encode(try Self.frame())
        let cut = Array(jpeg.prefix(200))
        #expect(throws: FrameError.self) {
            try cut.withUnsafeBytes { try CameraFormat.mjpeg.luma(of: $0, width: 640, height: 480, bytesPerLine: 0) }
        }
        #expect(throws: FrameError.self) {
            try [UInt8](repeating: 0, count: 100).withUnsafeBytes {
                try CameraFormat.raw(.yuyv).luma(of: $0, width: 640, height: 480, bytesPerLine: 1280)
            }
        }
    }

    @Test func scannerIsReusedAcrossFramesAndSeesOnlyQR() throws {
        let code = try Self.frame()
        let blank = LumaFrame(width: 640, height: 480, pixels: [UInt8](repeating: 210, count: 640 * 480))
        let zbar = ZBarScanner(), zxing = ZXingScanner(), both = QRDecoder()
        for _ in 0..<3 {
            for scan in [zbar.scan, zxing.scan, both.scan] as [(LumaFrame) -> [String]] {
                #expect(scan(code) == [Self.payload])
                #expect(scan(blank).isEmpty)
            }
        }
    }

    @Test(arguments: [(1, 1), (2, 3000), (3000, 2), (17, 13)])
    func tinyAndOddFramesAreEmptyNotACrash(width: Int, height: Int) {
        let frame = LumaFrame(width: width, height: height, pixels: (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 37) })
        #expect(QRDecoder().scan(frame).isEmpty)
        // Fewer bytes than width × height: refused before either library sees them.
        let short = [UInt8](repeating: 0, count: max(0, width * height - 1))
        #expect(short.withUnsafeBytes { QRDecoder().scan($0, width: width, height: height) }.isEmpty)
    }

    @Test func watchModeSkipsAStaticSceneOnRealFrames() throws {
        let scanner = QRDecoder()
        var watcher = FrameWatcher(matcher: PayloadMatcher(payloads: [Self.payload], prefixes: []))
        let code = try Self.frame()
        var sightings: [String] = []
        for i in 0..<20 {
            sightings += watcher.process(code, at: Double(i) / 4) { scanner.scan($0) }.sightings
        }
        #expect(sightings == ["payload-1"])
        #expect(watcher.decoded == 1 && watcher.skipped == 19)
    }

    @Test func pngRoundTripAndTerminalRendering() throws {
        let code = try QRCodeImage(payload: Self.payload)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(code.luma(scale: 4), to: path)
        #expect(ZBarScanner().scan(try ImageFile.loadLuma(path: path)) == [Self.payload])
        let lines = code.terminalText().split(separator: "\n")
        let side = code.size + 2 * QRCodeImage.quietZone
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        #expect(lines.first.map { $0.allSatisfy { $0 == "█" } } == true, "the quiet zone is light")
    }

    @Test func oversizedPayloadIsAnError() {
        #expect(throws: QREncodeError.self) { try QRCodeImage(payload: String(repeating: "x", count: 4000)) }
    }
}
