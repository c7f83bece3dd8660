import Localization

/// Why bytes read from a tag are not a valid NDEF message or Type 2 TLV
/// area. Every malformed input ends in one of these; the parser never traps
/// and never allocates more than the input it was given.
public enum NDEFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended inside a header, length or declared field.
    case bufferUnderflow(needed: Int, available: Int)
    /// A length field declares more bytes than the input (or the tag) holds.
    case lengthExceedsInput(declared: UInt64, available: Int)
    /// The first record of a message lacks MB, or a later one has it.
    case messageBeginFlag(recordIndex: Int)
    /// The last record lacks ME.
    case messageEndMissing
    /// A chunked record is broken: CF on the last record, a middle chunk
    /// that is not TNF "unchanged", or an "unchanged" record outside a chunk.
    case chunking(String)
    /// TNF rules: Empty must be empty, Unknown/Unchanged have no type,
    /// Well-known/Media/URI/External need one, TNF 7 is reserved.
    case typeNameFormat(String)
    /// A well-known record's payload does not decode (bad UTF-8/UTF-16, a
    /// zero or overlong language code, an undefined URI prefix code, …).
    case invalidPayload(String)
    /// The Type 2 capability container is not `E1 1x …` (no NDEF on this tag).
    case notNDEFFormatted
    /// A TLV other than the ones we can skip, or a TLV running past the data area.
    case malformedTLV(String)

    public var description: String {
        switch self {
        case let .bufferUnderflow(needed, available):
            trn("buffer underflow: needed \(needed) byte, \(available) available", "buffer underflow: needed \(needed) bytes, \(available) available", needed)
        case let .lengthExceedsInput(declared, available):
            trn("declared length \(declared) exceeds the \(available) byte available", "declared length \(declared) exceeds the \(available) bytes available", available)
        case let .messageBeginFlag(index):
            index == 0 ? tr("MB flag not set in first record") : tr("MB flag set in middle record \(index)")
        case .messageEndMissing: tr("ME flag not set in last record")
        case let .chunking(detail): tr("chunked record: \(detail)")
        case let .typeNameFormat(detail): tr("type name format: \(detail)")
        case let .invalidPayload(detail): tr("invalid payload: \(detail)")
        case .notNDEFFormatted: tr("capability container is not NDEF (no E1 magic)")
        case let .malformedTLV(detail): tr("malformed TLV: \(detail)")
        }
    }
}
