import Localization
import ArgumentParser
import DeskDaysCLI
import DeskDaysCore
import Foundation
import QR
import QRAdapter

extension QRCommand {
    /// `deskdays qr bench-frames` (hidden), for bench/qr.sh: times the camera
    /// frame path (a YUYV or MJPEG buffer → luma → ZXing, then zbar; the decoders reused)
    /// on a W×H frame holding one code, and writes the same frame as a PNG so
    /// `zbarimg` and `deskdays qr scan` can be timed on it too.
    struct BenchFrames: ParsableCommand {
        init() {}

        static let configuration = CommandConfiguration(
            commandName: "bench-frames", abstract: tr("Time the camera frame path (benchmark)."), shouldDisplay: false)

        @Option var width = 640
        @Option var height = 480
        @Option(help: ArgumentHelp(tr("Frames to decode per format.")))
        var count = 200
        @Option(help: ArgumentHelp(tr("Where to write the frame as a PNG.")))
        var png: String
        @Option(help: ArgumentHelp(tr("Where to write the frame as raw YUYV (for the virtual camera).")))
        var yuyv: String?

        func validate() throws {
            guard (160...4096).contains(width), (120...4096).contains(height), count > 0 else {
                throw ValidationError(tr("--width 160…4096, --height 120…4096 and a positive --count, please."))

            }
        }
    }
}

/// `qr bench-frames`: the camera frame path, timed.
extension QRCommand.BenchFrames {
    /// CPU time of this process: unlike wall time, it does not swing with
    /// whatever else the machine is doing.
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    func run() throws {
        // A code about a third of the frame's height, as a badge held up to a webcam looks.
        let code = try QRCodeImage(payload: "deskdays:office:hq")
        let scale = max(2, height / 3 / (code.size + 2 * QRCodeImage.quietZone))
        let luma = code.luma(scale: scale)
        var pixels = [UInt8](repeating: 200, count: width * height)
        let left = (width - luma.width) / 2, top = (height - luma.height) / 2
        for y in 0..<luma.height {
            for x in 0..<luma.width { pixels[(top + y) * width + left + x] = luma.pixels[y * luma.width + x] }
        }
        let frame = LumaFrame(width: width, height: height, pixels: pixels)
        try PNG.write(frame, to: png)
        var packed = [UInt8](repeating: 128, count: width * height * 2)
        for i in 0..<(width * height) { packed[2 * i] = pixels[i] }
        if let yuyv { try Data(packed).write(to: URL(fileURLWithPath: yuyv)) }
        let mjpeg = try JPEG.encode(frame)
        let scanner = QRDecoder()
        for (name, format, bytes) in [("yuyv", CameraFormat.raw(.yuyv), packed), ("mjpeg", .mjpeg, mjpeg)] {
            let start = Self.cpuSeconds()
            var decoded = 0
            for _ in 0..<count {
                let luma = try bytes.withUnsafeBytes {
                    try format.luma(of: $0, width: width, height: height, bytesPerLine: width * 2)
                }
                if !scanner.scan(luma).isEmpty { decoded += 1 }
            }
            let seconds = Self.cpuSeconds() - start
            print("\(name) \(String(format: "%.1f", Double(count) / seconds)) frames per CPU-s (\(decoded)/\(count) decoded)")
        }
        // No code in view (a camera scan before the code is held up): both decoders look at every frame.
        // A scene of 16-pixel blocks of fixed pseudo-random greys: edges everywhere, no code.
        var state: UInt32 = 2_463_534_242
        let blocks = (0..<((width / 16 + 1) * (height / 16 + 1))).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
        let empty = LumaFrame(width: width, height: height, pixels: (0..<(width * height)).map {
            blocks[($0 / width / 16) * (width / 16 + 1) + ($0 % width) / 16]
        })
        let start = Self.cpuSeconds()
        for _ in 0..<count where !scanner.scan(empty).isEmpty { break }
        let seconds = Self.cpuSeconds() - start
        print("luma, no code in view \(String(format: "%.1f", Double(count) / seconds)) frames per CPU-s (ZXing and zbar both look)")
    }
}
