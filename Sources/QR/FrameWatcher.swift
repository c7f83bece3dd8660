/// The per-frame decisions of watch mode, kept apart from the camera
/// (docs/design.md, habit 5): skip frames that did not change, decode the others with the
/// scanner passed in, match payloads to rules, and report each sighting once.
///
/// A skipped frame repeats the last decoded frame's result: the scene did
/// not change, so a code in view is still in view, which keeps its sighting
/// alive without decoding it again.
public struct FrameWatcher: Sendable {
    public let matcher: PayloadMatcher
    public private(set) var detector: ChangeDetector
    public private(set) var debouncer: SightingDebouncer
    /// Counters for the log and the benchmark.
    public private(set) var decoded = 0
    public private(set) var skipped = 0
    private var lastRules: [String] = []
    private var lastUnknown = false

    public init(matcher: PayloadMatcher, detector: ChangeDetector = ChangeDetector(),
                debouncer: SightingDebouncer = SightingDebouncer()) {
        self.matcher = matcher
        self.detector = detector
        self.debouncer = debouncer
    }

    /// What one frame produced.
    public struct Outcome: Sendable, Equatable {
        /// Rules sighted anew in this frame (each becomes one check-in).
        public var sightings: [String]
        /// Whether the frame was decoded (false: skipped as unchanged).
        public var decoded: Bool
        /// A code was decoded that matches no rule, and the previous decoded frame had none.
        public var newUnknownCode: Bool
    }

    /// A new camera session (the camera was reopened): the old reference
    /// frame says nothing about the new view, so the next frame is decoded.
    public mutating func restart() {
        detector.reset()
        lastRules = []
    }

    /// Processes one frame taken at `time` (seconds, monotonic).
    public mutating func process(_ frame: LumaFrame, at time: Double, scan: (LumaFrame) -> [String]) -> Outcome {
        var unknown = false
        let decode = detector.admit(frame)
        if decode {
            decoded += 1
            let payloads = scan(frame)
            var rules: [String] = []
            for payload in payloads {
                if let rule = matcher.rule(for: payload) {
                    if !rules.contains(rule) { rules.append(rule) }
                } else {
                    unknown = true
                }
            }
            lastRules = rules
        } else {
            skipped += 1
        }
        let sightings = lastRules.filter { debouncer.admit($0, at: time) }
        let newUnknown = decode && unknown && !lastUnknown
        if decode { lastUnknown = unknown }
        return Outcome(sightings: sightings, decoded: decode, newUnknownCode: newUnknown)
    }
}
