/// The whole receive path from bytes to fixes: framer, sentence decoders
/// and cycle assembly. `nmea decode`, the serial adapter and `enroll gps`
/// all use this one type, so what the tests check is what runs.
public struct NMEAStreamDecoder: Sendable {
    private var framer = NMEAFramer()
    private var assembler = FixAssembler()
    /// Sentences of a decoded kind whose fields did not parse.
    public private(set) var undecodable = 0

    public init() {}

    /// The framer's counts (sentences, bad checksums, …).
    public var statistics: NMEAFramer.Statistics { framer.statistics }

    /// Feeds raw bytes; calls `onFix` for each completed cycle.
    public mutating func feed(buffer: UnsafeRawBufferPointer, _ onFix: (Fix) -> Void) {
        // The framer is moved out while it runs so the event handler may
        // mutate the rest of `self` (exclusive access); no copy is made.
        var framer = NMEAFramer()
        swap(&framer, &self.framer)
        defer { swap(&framer, &self.framer) }
        framer.feed(buffer: buffer) { event in handle(event, onFix) }
    }

    /// Feeds raw bytes from any sequence (tests).
    public mutating func feed(_ bytes: some Sequence<UInt8>, _ onFix: (Fix) -> Void) {
        var framer = NMEAFramer()
        swap(&framer, &self.framer)
        defer { swap(&framer, &self.framer) }
        framer.feed(bytes) { event in handle(event, onFix) }
    }

    /// Ends the current cycle (end of input, device lost).
    public mutating func finish(_ onFix: (Fix) -> Void) {
        if let fix = assembler.flush() { onFix(fix) }
    }

    private mutating func handle(_ event: FramerEvent, _ onFix: (Fix) -> Void) {
        guard case .sentence(let sentence) = event else { return }
        do {
            if let message = try NMEAMessage.decode(sentence), let fix = assembler.add(message) {
                onFix(fix)
            }
        } catch {
            undecodable += 1
        }
    }
}
