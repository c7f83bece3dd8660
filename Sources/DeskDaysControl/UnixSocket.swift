import AgentSocket
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
    /// Writes all of `data`; false when the peer is gone (or, with
    /// `nonBlocking`, too slow to take it now). Never raises SIGPIPE.
    package static func sendAll(_ fd: Int32, _ data: Data, nonBlocking: Bool = false) -> Bool {
        let flags = Int32(MSG_NOSIGNAL) | (nonBlocking ? Int32(MSG_DONTWAIT) : 0)
        return data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}

/// Splits a byte stream into lines of at most `limit` bytes.
///
/// A line longer than `limit` is reported once as `.tooLong` and its bytes
/// are dropped up to the next newline, so one oversized request neither
/// grows memory without bound nor desynchronises the requests after it.
package struct LineSplitter {
    /// One unit of input.
    package enum Piece: Equatable {
        case line(Data)
        case tooLong
    }

    package let limit: Int
    private var buffer = Data()
    private var discarding = false

    package init(limit: Int) {
        self.limit = limit
    }

    /// Appends `bytes` and returns every piece they complete.
    package mutating func append(_ bytes: Data) -> [Piece] {
        var pieces: [Piece] = []
        var rest = bytes[...]
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
            buffer.append(contentsOf: head)
            pieces.append(.line(buffer))
            buffer.removeAll()
        }
        if !discarding {
            if buffer.count + rest.count > limit {
                buffer.removeAll()
                discarding = true
                pieces.append(.tooLong)
            } else {
                buffer.append(contentsOf: rest)
            }
        }
        return pieces
    }
}
