/// Cuts a byte stream from a receiver into checksummed NMEA sentences.
///
/// A value-type state machine: `feed` may be called with any split of the
/// input (one byte at a time, a `read()`'s worth, a whole file) and
/// produces the same sentences in the same order.
///
/// Policy, after gpsd's packet lexer (`gpsd/packet.c`):
/// - A sentence is `$`, a body of printable ASCII, `*`, two hex digits
///   (upper or lower case: the Magellan eXplorist/EC-10 sends lower case),
///   then CR and/or LF. Anything outside a sentence is skipped (resync).
/// - The checksum is mandatory. gpsd's `nmea_checksum()` fails sentences
///   without one (only Skytraq's `$STI` is let through, which we do not
///   decode), so a missing checksum is rejected and counted here too;
///   accepting unchecked lines would let line noise move the user.
/// - A `$` inside a body restarts the sentence: the partial one is counted
///   as spliced. `$$GNGSA` (ST Teseo) is therefore just `$GNGSA`, since the
///   first `$` had an empty body.
/// - Lines starting with `#` are comments (capture headers), as in gpsd.
/// - The body is bounded (`maximumBodyLength`), so garbage without line
///   ends never grows the buffer.
/// - u-blox UBX binary frames between sentences (sync `B5 62`, class, id,
///   a little-endian length, payload, two checksum bytes) are skipped
///   whole, as gpsd's lexer does, so a `$`, `*` or line end inside their
///   payload never starts or breaks a sentence. Receivers send them when
///   both protocols are enabled on one port.
public struct NMEAFramer: Sendable {
    /// The longest body accepted. NMEA 0183 allows 79 characters between
    /// `$` and the line end; gpsd accepts up to 130 bytes because real
    /// receivers exceed the standard. 160 leaves room for long proprietary
    /// sentences while still bounding the buffer.
    public static let maximumBodyLength = 160

    /// Counts of what the framer has seen since it was created.
    public struct Statistics: Sendable, Hashable {
        public var sentences = 0
        public var badChecksum = 0
        public var missingChecksum = 0
        public var spliced = 0
        public var malformed = 0
        public var tooLong = 0
        /// Bytes skipped outside any sentence (noise, comments excluded).
        public var skippedBytes = 0
        /// u-blox UBX binary frames skipped whole.
        public var ubxFrames = 0

        public init() {}

        public var rejected: Int { badChecksum + missingChecksum + spliced + malformed + tooLong }

        mutating func count(_ rejection: FramerEvent.Rejection) {
            switch rejection {
            case .badChecksum: badChecksum += 1
            case .missingChecksum: missingChecksum += 1
            case .spliced: spliced += 1
            case .malformed: malformed += 1
            case .tooLong: tooLong += 1
            }
        }
    }

    private enum State: Sendable {
        /// Between sentences; `lineStart` is true right after a line end.
        case idle(lineStart: Bool)
        /// Inside a `#` comment line.
        case comment
        /// Collecting body bytes after `$`.
        case body
        /// After `*`, waiting for the first hex digit.
        case checksumHigh
        /// Waiting for the second hex digit; holds the first's value.
        case checksumLow(UInt8)
        /// Checksum read; waiting for CR or LF. Holds the received value.
        case lineEnd(UInt8)
        /// After a UBX frame's first sync byte `B5`.
        case ubxSync
        /// Reading a UBX frame's class, id and length: the bytes read so far
        /// (0–3) and the length's low byte.
        case ubxHeader(read: Int, lengthLow: UInt8)
        /// Skipping the rest of a UBX frame: payload and checksum.
        case ubxSkip(remaining: Int)
    }

    /// A UBX payload longer than this is taken for noise that happened to
    /// start with the sync bytes (u-blox messages are far shorter), so the
    /// sentences after it are not swallowed.
    static let maximumUBXPayload = 4096

    private var state: State = .idle(lineStart: true)
    private var body: [UInt8] = []
    private var sum: UInt8 = 0
    public private(set) var statistics = Statistics()

    /// A framer at the start of a stream. Allocation-free: the body buffer
    /// grows on first use and keeps its capacity afterwards.
    public init() {}

    /// Feeds bytes; returns the sentences completed and rejections decided.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [FramerEvent] {
        var events: [FramerEvent] = []
        feed(bytes) { events.append($0) }
        return events
    }

    /// Feeds bytes, calling `handle` for each event as it is decided: the
    /// allocation-free path the serial reader and `nmea decode` use.
    public mutating func feed(_ bytes: some Sequence<UInt8>, _ handle: (FramerEvent) -> Void) {
        for byte in bytes { step(byte, handle) }
    }

    /// Feeds one buffer; the fast path (no generic iteration).
    public mutating func feed(buffer: UnsafeRawBufferPointer, _ handle: (FramerEvent) -> Void) {
        for byte in buffer { step(byte, handle) }
    }

    @inline(__always)
    private mutating func step(_ byte: UInt8, _ handle: (FramerEvent) -> Void) {
        switch state {
        case .body:
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "$"), byte != UInt8(ascii: "*") {
                if body.count == NMEAFramer.maximumBodyLength {
                    reject(.tooLong, handle)
                } else {
                    body.append(byte)
                    sum ^= byte
                }
            } else if byte == UInt8(ascii: "*") {
                state = .checksumHigh
            } else if byte == UInt8(ascii: "$") {
                if body.isEmpty {
                    sum = 0 // `$$`: the first `$` started nothing.
                } else {
                    reject(.spliced, handle)
                    start()
                }
            } else if byte == 0x0D || byte == 0x0A {
                reject(.missingChecksum, handle, lineStart: true)
            } else {
                reject(.malformed, handle)
            }
        case .idle(let lineStart):
            if byte == UInt8(ascii: "$") {
                start()
            } else if byte == 0xB5 {
                state = .ubxSync
            } else if byte == 0x0D || byte == 0x0A {
                state = .idle(lineStart: true)
            } else if lineStart, byte == UInt8(ascii: "#") {
                state = .comment
            } else {
                statistics.skippedBytes += 1
                state = .idle(lineStart: false)
            }
        case .comment:
            if byte == 0x0A || byte == 0x0D { state = .idle(lineStart: true) }
        case .ubxSync:
            if byte == 0x62 {
                state = .ubxHeader(read: 0, lengthLow: 0)
            } else {
                // Not a UBX frame after all: the B5 was noise; this byte is read afresh.
                statistics.skippedBytes += 1
                state = .idle(lineStart: false)
                step(byte, handle)
            }
        case .ubxHeader(let read, let lengthLow):
            switch read {
            case 0, 1: state = .ubxHeader(read: read + 1, lengthLow: 0)  // class, id
            case 2: state = .ubxHeader(read: 3, lengthLow: byte)
            default:
                let length = Int(lengthLow) | Int(byte) << 8
                if length > NMEAFramer.maximumUBXPayload {
                    statistics.skippedBytes += 6
                    state = .idle(lineStart: false)
                } else {
                    state = .ubxSkip(remaining: length + 2)
                }
            }
        case .ubxSkip(let remaining):
            if remaining > 1 {
                state = .ubxSkip(remaining: remaining - 1)
            } else {
                statistics.ubxFrames += 1
                state = .idle(lineStart: true)
            }
        case .checksumHigh:
            if let value = NMEAFramer.hexValue(byte) {
                state = .checksumLow(value)
            } else {
                rejectAfterChecksum(byte, handle)
            }
        case .checksumLow(let high):
            if let value = NMEAFramer.hexValue(byte) {
                state = .lineEnd(high << 4 | value)
            } else {
                rejectAfterChecksum(byte, handle)
            }
        case .lineEnd(let received):
            if byte == 0x0D || byte == 0x0A {
                if received == sum {
                    statistics.sentences += 1
                    handle(.sentence(Sentence(body: body)))
                } else {
                    statistics.count(.badChecksum)
                    handle(.rejected(.badChecksum))
                }
                body.removeAll(keepingCapacity: true)
                state = .idle(lineStart: true)
            } else {
                rejectAfterChecksum(byte, handle)
            }
        }
    }

    private mutating func start() {
        body.removeAll(keepingCapacity: true)
        sum = 0
        state = .body
    }

    private mutating func reject(_ reason: FramerEvent.Rejection, _ handle: (FramerEvent) -> Void,
                                 lineStart: Bool = false) {
        statistics.count(reason)
        handle(.rejected(reason))
        body.removeAll(keepingCapacity: true)
        state = .idle(lineStart: lineStart)
    }

    /// Junk where a hex digit or the line end belongs. A `$` there means the
    /// next sentence began early (spliced); it also starts that sentence.
    private mutating func rejectAfterChecksum(_ byte: UInt8, _ handle: (FramerEvent) -> Void) {
        if byte == UInt8(ascii: "$") {
            reject(.spliced, handle)
            start()
        } else {
            reject(.malformed, handle, lineStart: byte == 0x0D || byte == 0x0A)
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
