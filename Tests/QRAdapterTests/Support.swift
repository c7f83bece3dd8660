import Foundation
import Spawn
import TestSupport
import QR

/// Paths and tools the QR adapter tests share.
enum Support {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = tests.appendingPathComponent("Fixtures/qr")
    static let harness = tests.appendingPathComponent("Harness/vm")

    /// Every photo of the ZXing set, sorted.
    static var photos: [String] {
        let files = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
            .map { fixtures.appendingPathComponent($0).path }
    }

    /// The built `deskdays`: `DESKDAYS_BIN` (set by `make test`), else beside the test bundle.
    static var binary: String? {
        if let path = ProcessInfo.processInfo.environment["DESKDAYS_BIN"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        var url = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("deskdays").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    static func has(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// Runs a program (a path, or a name on PATH) to the end; stdout, stderr and status.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32, stdout: Data, stderr: String) {
        // An empty value removes the variable.
        let overrides = environment.mapValues { $0.isEmpty ? nil : $0 }
        let result = try await Program.run(program, arguments, overrides: overrides)
        return (result.status, Data(result.stdoutBytes), result.stderr)
    }

    /// A camera-sized frame with `code` centred on a light grey background.
    static func canvas(_ code: LumaFrame, width: Int, height: Int, background: UInt8 = 210) -> LumaFrame {
        var pixels = [UInt8](repeating: background, count: width * height)
        let left = (width - code.width) / 2, top = (height - code.height) / 2
        for y in 0..<code.height {
            for x in 0..<code.width { pixels[(top + y) * width + left + x] = code.pixels[y * code.width + x] }
        }
        return LumaFrame(width: width, height: height, pixels: pixels)
    }

    /// The same luma as a YUYV frame (neutral chroma), with `stride` bytes a row.
    static func yuyv(_ frame: LumaFrame, stride: Int? = nil) -> [UInt8] {
        let stride = stride ?? frame.width * 2
        var bytes = [UInt8](repeating: 128, count: stride * frame.height)
        for y in 0..<frame.height {
            for x in 0..<frame.width { bytes[y * stride + 2 * x] = frame.pixels[y * frame.width + x] }
        }
        return bytes
    }
}
