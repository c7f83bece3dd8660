import Syscall
import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Bounded reading (docs/design.md "Sync"): a file of the folder is read
/// as a stream of lines, a batch at a time, never whole, so that memory
/// stays bounded whatever the folder holds (a 20 GB sparse file, 100 MB of
/// newlines, one endless line).
extension Synchronizer {
    /// The longest journal line read; a longer one is skipped, named.
    public static let maximumLineBytes = 65_536
    /// The largest journal or relay file read (a ten-year journal of
    /// twenty signs a workday is 11 MB); a larger one is named and skipped.
    public static let maximumJournalBytes: Int64 = 64 * 1_048_576
    /// A batch: at most this many bytes read at once, and this many lines decoded.
    static let batchBytes = 4 * 1_048_576
    static let batchLines = 20_000

    /// A line of a file, as `eachLines` passes it.
    struct FileLine {
        /// Its number less one, counted from where the read began.
        var index: Int
        /// Where it starts in the file, and where the next one does.
        var offset: Int64
        var end: Int64
        /// Its bytes without the newline; empty when `tooLong`.
        var bytes: ArraySlice<UInt8>
        var tooLong = false
    }

    /// Why a file of `size` bytes is not read, or nil.
    static func sizeProblem(_ name: String, size: Int64) -> String? {
        guard size > maximumJournalBytes else { return nil }
        let megabytes = maximumJournalBytes / 1_048_576
        return tr("\(name) in the sync folder is larger than \(megabytes) MB, more than any journal DeskDays writes; it is not read (remove it)")
    }

    /// The complete lines of `fd` from byte `start` to `end`, in batches
    /// (`batchBytes`, `batchLines`): `body` gets each batch's lines that
    /// are not empty (a line longer than `maximumLineBytes` without its
    /// bytes) and returns false to stop. Returns where the last complete
    /// line read ends (`start` when none).
    @discardableResult
    static func eachLines(_ fd: Int32, from start: Int64, to end: Int64, _ body: ([FileLine]) throws -> Bool) rethrows -> Int64 {
        var at = start, lineStart = start, index = 0
        // The bytes of the line not complete yet, unless it is too long already (`skipping`).
        var carry: [UInt8] = [], skipping = false
        while at < end {
            let base = at - Int64(carry.count)
            let count = Int(min(Int64(batchBytes), end - at))
            var chunk = carry
            chunk.reserveCapacity(carry.count + count)
            let got = appendRead(fd, at: at, count: count, to: &chunk)
            guard got > 0 else { break }
            at += Int64(got)
            var lines: [FileLine] = []
            var stop = false
            var position = 0
            let newlines = chunk.withUnsafeBufferPointer { buffer -> [Int] in
                var found: [Int] = []
                var from = 0
                while from < buffer.count, let hit = memchr(buffer.baseAddress! + from, 0x0A, buffer.count - from) {
                    let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(buffer.baseAddress!)
                    found.append(offset)
                    from = offset + 1
                }
                return found
            }
            for newline in newlines {
                let lineEnd = base + Int64(newline) + 1
                if skipping || newline - position > maximumLineBytes {
                    lines.append(FileLine(index: index, offset: lineStart, end: lineEnd, bytes: [], tooLong: true))
                } else if newline > position {
                    lines.append(FileLine(index: index, offset: lineStart, end: lineEnd, bytes: chunk[position..<newline]))
                }
                skipping = false
                index += 1
                lineStart = lineEnd
                position = newline + 1
                if lines.count == batchLines {
                    guard try body(lines) else { stop = true; break }
                    lines = []
                }
            }
            if stop { return lineStart }
            if !lines.isEmpty, try !body(lines) { return lineStart }
            if skipping || chunk.count - position > maximumLineBytes {
                skipping = true
                carry = []
            } else {
                carry = Array(chunk[position...])
            }
        }
        return lineStart
    }

    /// Appends up to `count` bytes of `fd` from `at` to `bytes`; how many.
    private static func appendRead(_ fd: Int32, at: Int64, count: Int, to bytes: inout [UInt8]) -> Int {
        let old = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        var done = 0
        bytes.withUnsafeMutableBytes { raw in
            while done < count {
                let rest = UnsafeMutableRawBufferPointer(rebasing: raw[(old + done)..<(old + count)])
                guard case .success(let read) = Syscall.read(fd, at: at + Int64(done), into: rest), read > 0 else { break }
                done += read
            }
        }
        bytes.removeLast(count - done)
        return done
    }

    /// Reads device `id`'s lines in the file at `path` from its start, a
    /// batch at a time (`read`): `body` gets each batch's reading and
    /// returns false to stop. Nil when the file cannot be read; a warning
    /// when it is too large.
    static func eachReading(_ path: String, device id: String, now: ClockTime, replaced: Set<Int64> = [],
                            _ body: (Reading) throws -> Bool) rethrows -> String?? {
        guard case .file(let fd) = openFile(path) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        if let problem = sizeProblem((path as NSString).lastPathComponent, size: Int64(info.st_size)) { return .some(problem) }
        try eachLines(fd, from: 0, to: Int64(info.st_size)) { lines in try body(read(lines, device: id, now: now, replaced: replaced)) }
        return .some(nil)
    }
}
