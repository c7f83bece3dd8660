/// What the framer reports for each candidate sentence it finishes: a
/// verified sentence, or the reason one was thrown away.
public enum FramerEvent: Sendable, Hashable {
    case sentence(Sentence)
    case rejected(Rejection)

    /// Why a candidate sentence was discarded. Every case is counted in
    /// `NMEAFramer.Statistics`; none of them ever reaches a decoder.
    public enum Rejection: String, Sendable, Hashable, CaseIterable {
        /// The `*hh` did not match the XOR of the body.
        case badChecksum
        /// The line ended with no `*hh` (gpsd rejects these too).
        case missingChecksum
        /// A new `$` arrived inside a sentence: two sentences spliced into
        /// one line, or a line cut short and followed by the next one.
        case spliced
        /// A control or non-ASCII byte inside the sentence, or junk where
        /// the checksum or line end should be (line noise, a truncated line).
        case malformed
        /// Longer than `NMEAFramer.maximumBodyLength` without a line end.
        case tooLong
    }
}
