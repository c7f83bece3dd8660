import Localization
import DeskDaysCore
import Foundation

/// Checks a database's write-ahead log (`<db>-wal`) before SQLite opens the
/// database, so that a damaged log is refused instead of silently ignored.
///
/// SQLite trusts a WAL only from a valid header and then frame by frame
/// while the salts and the running checksum match (sqlite.org/fileformat.html,
/// "The WAL file format"); everything from the first bad frame on is
/// discarded, and a checkpoint then makes the loss permanent. A torn last
/// transaction after a crash is such a tail and is rightly dropped: its
/// frames end the file. But a damaged header, or a bad frame followed by
/// further frames of the same log generation (same salts), means committed
/// history would be thrown away, and the file must not be opened.
enum WriteAheadLog {
    /// Why the log at `path` would lose data, or nil when it is absent, empty or sound.
    static func damage(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd(), !data.isEmpty else { return nil }
        return data.withUnsafeBytes { damage(in: Array($0.bindMemory(to: UInt8.self))) }
    }

    static func damage(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 32 else { return trn("its header is cut short (\(bytes.count) byte)", "its header is cut short (\(bytes.count) bytes)", bytes.count) }
        let magic = word(bytes, 0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return tr("its header does not start with the WAL magic number") }
        let bigEndian = magic == 0x377F_0683
        let pageSize = Int(word(bytes, 8))
        guard word(bytes, 4) == 3_007_000, pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            return tr("its header names an impossible format or page size")
        }
        var sum = checksum(bytes, 0, 24, bigEndian: bigEndian, seed: (0, 0))
        guard sum == (word(bytes, 24), word(bytes, 28)) else { return tr("its header checksum does not match") }
        let salts = (word(bytes, 16), word(bytes, 20))
        let frameSize = 24 + pageSize
        var offset = 32
        var brokenAt: Int?
        while offset + frameSize <= bytes.count {
            let sameLog = (word(bytes, offset + 8), word(bytes, offset + 12)) == salts
            if let broken = brokenAt {
                if sameLog { return tr("frame \((broken - 32) / frameSize + 1) is damaged and later frames would be dropped with it") }
            } else if sameLog {
                sum = checksum(bytes, offset, 8, bigEndian: bigEndian, seed: sum)
                sum = checksum(bytes, offset + 24, pageSize, bigEndian: bigEndian, seed: sum)
                if sum != (word(bytes, offset + 16), word(bytes, offset + 20)) { brokenAt = offset }
            } else {
                // Frames of an older generation: SQLite stops here, and so do we.
                return nil
            }
            offset += frameSize
        }
        return nil
    }

    /// A 32-bit big-endian word.
    static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// SQLite's WAL checksum over `count` bytes (a multiple of 8) from `start`.
    static func checksum(_ bytes: [UInt8], _ start: Int, _ count: Int, bigEndian: Bool,
                         seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = seed
        var i = start
        while i < start + count {
            let x0 = bigEndian ? word(bytes, i) : word(bytes, i).byteSwapped
            let x1 = bigEndian ? word(bytes, i + 4) : word(bytes, i + 4).byteSwapped
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            i += 8
        }
        return (s0, s1)
    }
}
