import QR
import Testing

/// Luma extraction from camera layouts, the change detector, the sighting
/// debounce and the watch-mode frame logic, on small synthetic frames.
struct FrameTests {
    /// A frame with a gradient, so row/column mix-ups show.
    static func gradient(width: Int, height: Int, offset: Int = 0) -> LumaFrame {
        LumaFrame(width: width, height: height,
                  pixels: (0..<width * height).map { UInt8(truncatingIfNeeded: ($0 % width) * 3 + ($0 / width) * 7 + offset) })
    }

    @Test func yuyvLumaIsTheEvenBytesRowByRowWithStride() {
        let frame = Self.gradient(width: 6, height: 4)
        let stride = 6 * 2 + 4  // driver padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * 4)
        for y in 0..<4 {
            for x in 0..<6 {
                bytes[y * stride + 2 * x] = frame.pixels[y * 6 + x]
                bytes[y * stride + 2 * x + 1] = x % 2 == 0 ? 0x80 : 0x40  // U / V
            }
        }
        let luma = bytes.withUnsafeBytes { PixelFormat.yuyv.luma(of: $0, width: 6, height: 4, bytesPerLine: stride) }
        #expect(luma == frame)
    }

    @Test func greyAndYUV420AreCopiedWithoutPadding() {
        let frame = Self.gradient(width: 5, height: 3)
        var planar = frame.pixels + [UInt8](repeating: 128, count: 2 * 3 * 3)  // U and V planes after Y
        #expect(planar.withUnsafeBytes { PixelFormat.yuv420.luma(of: $0, width: 5, height: 3) } == frame)
        planar = frame.pixels
        #expect(planar.withUnsafeBytes { PixelFormat.grey.luma(of: $0, width: 5, height: 3) } == frame)
    }

    @Test func truncatedBufferIsRejected() {
        let bytes = [UInt8](repeating: 0, count: 6 * 2 * 4 - 1)
        #expect(bytes.withUnsafeBytes { PixelFormat.yuyv.luma(of: $0, width: 6, height: 4) } == nil)
        #expect(bytes.withUnsafeBytes { PixelFormat.yuyv.luma(of: $0, width: 0, height: 4) } == nil)
    }

    @Test func unchangedAndNoisyFramesAreSkipped() {
        var detector = ChangeDetector()
        let frame = Self.gradient(width: 640, height: 480)
        let r1 = detector.admit(frame)
        #expect(r1)
        let r2 = detector.admit(frame)
        #expect(!r2)
        // Sensor noise of a few levels everywhere is not a change.
        var noisy = frame
        for i in noisy.pixels.indices { noisy.pixels[i] &+= UInt8(i % 7) }
        let r3 = detector.admit(noisy)
        #expect(!r3)
    }

    @Test func aBadgeCoveringAFewPercentIsAChange() {
        var detector = ChangeDetector()
        var frame = LumaFrame(width: 640, height: 480, pixels: [UInt8](repeating: 90, count: 640 * 480))
        let r4 = detector.admit(frame)
        #expect(r4)
        // A 96×96 white card (3 % of the view) held up.
        for y in 200..<296 { for x in 300..<396 { frame.pixels[y * 640 + x] = 250 } }
        let r5 = detector.admit(frame)
        #expect(r5)
        let r6 = detector.admit(frame)
        #expect(!r6)
    }

    @Test func skippedFramesDoNotMoveTheReference() {
        var detector = ChangeDetector(step: 1, sampleThreshold: 10, changedFraction: 0.5)
        var frame = LumaFrame(width: 4, height: 4, pixels: [UInt8](repeating: 100, count: 16))
        let r7 = detector.admit(frame)
        #expect(r7)
        // Each step alone is below the threshold; together they are a change.
        frame.pixels = [UInt8](repeating: 108, count: 16)
        let r8 = detector.admit(frame)
        #expect(!r8)
        frame.pixels = [UInt8](repeating: 116, count: 16)
        let r9 = detector.admit(frame)
        #expect(r9)
    }

    @Test func sizeChangeAndResetForceADecode() {
        var detector = ChangeDetector()
        let r10 = detector.admit(Self.gradient(width: 64, height: 48))
        #expect(r10)
        let r11 = detector.admit(Self.gradient(width: 48, height: 64))
        #expect(r11)
        detector.reset()
        let r12 = detector.admit(Self.gradient(width: 48, height: 64))
        #expect(r12)
    }

    @Test func aCodeHeldInViewIsOneSighting() {
        var debouncer = SightingDebouncer(rearmAfter: 30)
        let r13 = debouncer.admit("payload-1", at: 0)
        #expect(r13)
        var repeats = 0
        for t in stride(from: 0.25, through: 120, by: 0.25) where debouncer.admit("payload-1", at: t) { repeats += 1 }
        #expect(repeats == 0)
        let r14 = debouncer.admit("payload-2", at: 121)
        #expect(r14)
        // Out of view for more than 30 s: a new sighting.
        let r15 = debouncer.admit("payload-1", at: 151)
        #expect(r15)
    }

    @Test func watcherSkipsUnchangedFramesAndReportsOnce() {
        var watcher = FrameWatcher(matcher: PayloadMatcher(payloads: ["office"], prefixes: []))
        let empty = LumaFrame(width: 64, height: 48, pixels: [UInt8](repeating: 40, count: 64 * 48))
        var withCode = empty
        for y in 10..<40 { for x in 10..<40 { withCode.pixels[y * 64 + x] = 230 } }
        var scans = 0
        let scan: (LumaFrame) -> [String] = { frame in
            scans += 1
            return frame == withCode ? ["office", "someone else's code"] : []
        }
        var sightings: [String] = []
        var unknown = 0
        let script = [empty, empty, empty, withCode, withCode, withCode, withCode, empty, empty, withCode]
        for (index, frame) in script.enumerated() {
            let outcome = watcher.process(frame, at: Double(index), scan: scan)
            sightings += outcome.sightings
            if outcome.newUnknownCode { unknown += 1 }
        }
        // Decoded: the first empty, the code, the empty again, the code again.
        #expect(scans == 4)
        #expect(watcher.decoded == 4 && watcher.skipped == 6)
        #expect(sightings == ["payload-1"], "back within 30 s: still one sighting")
        #expect(unknown == 2)
    }
}

/// RGB (image files, libv4l2's universal format) to luma.
struct RGBLumaTests {
    @Test func greyStaysExactAndPrimariesUseBT601Weights() {
        let rgb: [UInt8] = [0, 0, 0, 255, 255, 255, 128, 128, 128, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        let frame = rgb.withUnsafeBytes { PixelFormat.rgb24.luma(of: $0, width: 6, height: 1) }
        #expect(frame?.pixels == [0, 255, 128, 77, 149, 29])
    }
}

/// A reopened camera starts from a clean slate.
struct FrameWatcherRestartTests {
    @Test func restartDecodesTheNextFrameEvenIfUnchanged() {
        var watcher = FrameWatcher(matcher: PayloadMatcher(payloads: ["office"], prefixes: []))
        let frame = LumaFrame(width: 32, height: 32, pixels: [UInt8](repeating: 9, count: 1024))
        _ = watcher.process(frame, at: 0) { _ in [] }
        let skipped = watcher.process(frame, at: 1) { _ in [] }
        watcher.restart()
        let again = watcher.process(frame, at: 2) { _ in [] }
        #expect(!skipped.decoded && again.decoded)
    }
}
