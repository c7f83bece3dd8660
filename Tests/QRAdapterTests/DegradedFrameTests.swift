import Foundation
import QR
import QRAdapter
import Testing

/// Codes made by `deskdays qr make` (error correction H and a 4-module quiet
/// zone by default) read back by `deskdays qr scan` from camera-sized frames
/// made bad on purpose: out of focus, dim and noisy, partly covered. Every
/// frame is computed here from the PNG `qr make` wrote, the same on every run.
struct DegradedFrameTests {
    static let payload = "deskdays:office:hq"

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-qr-degraded-\(UUID().uuidString)")

    func deskdays(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await Support.run(try #require(Support.binary), arguments, environment: ["HOME": folder.path])
        return (result.status, String(decoding: result.stdout, as: UTF8.self), result.stderr)
    }

    /// `qr make`'s code at `scale` pixels a module, as luma.
    func made(ec: String? = nil, scale: Int) async throws -> LumaFrame {
        let png = folder.appendingPathComponent("code-\(ec ?? "default")-\(scale).png").path
        let made = try await deskdays(["qr", "make", "--payload", Self.payload, "--out", png, "--scale", "\(scale)"]
                                      + (ec.map { ["--ec", $0] } ?? []))
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Error correction level \(ec ?? "H")"), "\(made.stdout)")
        #expect(made.stdout.contains("quiet zone 4 modules"), "\(made.stdout)")
        return try ImageFile.loadLuma(path: png)
    }

    /// What `qr scan` reads in `frame` (written as a PNG).
    func scanned(_ frame: LumaFrame, name: String) async throws -> [String] {
        let png = folder.appendingPathComponent("\(name).png").path
        try PNG.write(frame, to: png)
        let config = folder.appendingPathComponent("config.toml").path
        try "[qr]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await deskdays(["qr", "scan", "--config", config, png])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count == 3 ? String(fields[1]) : nil
        }
    }

    // MARK: - Ways a camera spoils a frame

    /// A box blur of `radius` pixels, three passes (close to a Gaussian: a lens out of focus).
    static func blurred(_ frame: LumaFrame, radius: Int) -> LumaFrame {
        var pixels = frame.pixels.map(Int.init)
        let w = frame.width, h = frame.height, span = 2 * radius + 1
        for _ in 0..<3 {
            var horizontal = pixels
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0
                    for dx in -radius...radius { sum += pixels[y * w + min(max(x + dx, 0), w - 1)] }
                    horizontal[y * w + x] = sum / span
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0
                    for dy in -radius...radius { sum += horizontal[min(max(y + dy, 0), h - 1) * w + x] }
                    pixels[y * w + x] = sum / span
                }
            }
        }
        return LumaFrame(width: w, height: h, pixels: pixels.map { UInt8($0) })
    }

    /// Contrast squeezed into `low...high` (a dim room), plus sensor noise of
    /// up to ±`noise` from a fixed-seed generator.
    static func dimmed(_ frame: LumaFrame, low: Int, high: Int, noise: Int) -> LumaFrame {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = frame.pixels.map { value -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let jitter = noise == 0 ? 0 : Int((state >> 33) % UInt64(2 * noise + 1)) - noise
            return UInt8(min(max(low + Int(value) * (high - low) / 255 + jitter, 0), 255))
        }
        return LumaFrame(width: frame.width, height: frame.height, pixels: pixels)
    }

    /// A grey patch over `fraction` of the code's width, across its middle rows (a smudge, a glare).
    static func covered(_ frame: LumaFrame, codeSide: Int, fraction: Double) -> LumaFrame {
        var pixels = frame.pixels
        let left = (frame.width - codeSide) / 2, top = (frame.height - codeSide) / 2
        let side = Int(Double(codeSide) * fraction)
        let x0 = left + (codeSide - side) / 2, y0 = top + (codeSide - side) / 2
        for y in y0..<(y0 + side) {
            for x in x0..<(x0 + side) { pixels[y * frame.width + x] = 128 }
        }
        return LumaFrame(width: frame.width, height: frame.height, pixels: pixels)
    }

    // MARK: - Tests

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found: run `swift build` first or set DESKDAYS_BIN"))
    func madeCodesReadFromBlurredDimAndNoisyFrames() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let code = try await made(scale: 6)
        let frame = Support.canvas(code, width: 1280, height: 720, background: 200)
        let cases: [(String, LumaFrame)] = [
            ("blurred", Self.blurred(frame, radius: 2)),
            ("dim-noisy", Self.dimmed(frame, low: 20, high: 70, noise: 10)),
            ("blurred-dim-noisy", Self.dimmed(Self.blurred(frame, radius: 2), low: 15, high: 60, noise: 6)),
        ]
        for (name, spoiled) in cases {
            #expect(try await scanned(spoiled, name: name) == [Self.payload], "\(name)")
        }
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func levelHSurvivesASmudgeThatDefeatsLevelL() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var read: [String: [String]] = [:]
        for ec in ["L", "H"] {
            let code = try await made(ec: ec == "H" ? nil : ec, scale: 6)
            let frame = Support.canvas(code, width: 1280, height: 720, background: 200)
            let smudged = Self.covered(Self.blurred(frame, radius: 1), codeSide: code.width, fraction: 0.3)
            read[ec] = try await scanned(smudged, name: "smudged-\(ec)")
        }
        #expect(read["H"] == [Self.payload], "the default level reads through the smudge")
        #expect(read["L"] == [], "the same smudge on a level-L code: \(read["L"] ?? [])")
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found"))
    func ecOptionIsCheckedAndTooLongPayloadsSaySo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("x.png").path
        let bad = try await deskdays(["qr", "make", "--payload", "x", "--out", png, "--ec", "X"])
        #expect(bad.status != 0 && bad.stderr.contains("--ec must be L, M, Q or H."), "\(bad.stderr)")
        let long = String(repeating: "x", count: 2000)
        let high = try await deskdays(["qr", "make", "--payload", long, "--out", png])
        #expect(high.status == 1 && high.stderr.contains("choose a lower --ec"), "\(high.stderr)")
        let low = try await deskdays(["qr", "make", "--payload", long, "--out", png, "--ec", "l"])
        #expect(low.status == 0, "\(low.stderr)")
        #expect(low.stdout.contains("Error correction level L"))
    }
}
