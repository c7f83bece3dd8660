/// Splits a byte stream into lines of at most `limit` bytes (the control
/// socket's framing, both ways).
///
/// A line longer than `limit` is reported once as `.tooLong` and its bytes
/// are dropped up to the next newline, so one oversized line neither
/// grows memory without bound nor desynchronises the lines after it.
public struct LineSplitter: Sendable {
    /// One unit of input.
    public enum Piece: Equatable, Sendable {
        case line([UInt8])
        case tooLong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    public init(limit: Int) {
        self.limit = limit
    }

    /// Appends `bytes` and returns every piece they complete.
    public mutating func append(_ bytes: ArraySlice<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let head = rest[rest.startIndex..<newline]
            rest = rest[rest.index(after: newline)...]
            if discarding {
                discarding = false
                buffer.removeAll()
                continue
            }
            if buffer.count + head.count > limit {
                buffer.removeAll()
                pieces.append(.tooLong)
                continue
            }
            buffer += head
            pieces.append(.line(buffer))
            buffer.removeAll()
        }
        if !discarding {
            if buffer.count + rest.count > limit {
                buffer.removeAll()
                discarding = true
                pieces.append(.tooLong)
            } else {
                buffer += rest
            }
        }
        return pieces
    }
}
