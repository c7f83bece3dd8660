/// The cheap "did the scene change?" check of watch mode: decoding is skipped
/// for frames that barely differ from the last frame that was decoded, so an
/// idle desk costs a subsample and a compare per frame, not a decoder pass.
///
/// The frame is sampled on a coarse grid (every `step` pixels in both
/// directions: 4,800 samples at 640×480). A sample has changed when its luma
/// moved by more than `sampleThreshold` (well above sensor noise); the frame
/// has changed when more than `changedFraction` of the samples did, so a badge
/// covering a few percent of the view counts, flicker and noise do not.
public struct ChangeDetector: Sendable {
    public var step: Int
    public var sampleThreshold: Int
    public var changedFraction: Double
    private var reference: [UInt8] = []
    private var referenceSize = (width: 0, height: 0)

    public init(step: Int = 8, sampleThreshold: Int = 24, changedFraction: Double = 0.005) {
        precondition(step > 0)
        self.step = step
        self.sampleThreshold = sampleThreshold
        self.changedFraction = changedFraction
    }

    /// Whether `frame` should be decoded. A frame that is decoded becomes the
    /// new reference; a skipped one does not, so a slow drift still adds up
    /// to a change.
    public mutating func admit(_ frame: LumaFrame) -> Bool {
        let samples = sample(frame)
        guard frame.width == referenceSize.width, frame.height == referenceSize.height,
              samples.count == reference.count, !samples.isEmpty else {
            remember(samples, frame)
            return true
        }
        let limit = Int(Double(samples.count) * changedFraction)
        var changed = 0
        for i in samples.indices where abs(Int(samples[i]) - Int(reference[i])) > sampleThreshold {
            changed += 1
            if changed > limit {
                remember(samples, frame)
                return true
            }
        }
        return false
    }

    /// Forgets the reference, so the next frame is decoded (a new scan began).
    public mutating func reset() {
        reference = []
        referenceSize = (0, 0)
    }

    private mutating func remember(_ samples: [UInt8], _ frame: LumaFrame) {
        reference = samples
        referenceSize = (frame.width, frame.height)
    }

    private func sample(_ frame: LumaFrame) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((frame.width / step + 1) * (frame.height / step + 1))
        frame.pixels.withUnsafeBufferPointer { pixels in
            for y in stride(from: step / 2, to: frame.height, by: step) {
                let row = y * frame.width
                for x in stride(from: step / 2, to: frame.width, by: step) { out.append(pixels[row + x]) }
            }
        }
        return out
    }
}
