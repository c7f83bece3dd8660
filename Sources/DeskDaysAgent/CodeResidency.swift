import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps only the code the agent actually runs resident.
///
/// The executable is large (the Swift runtime and Foundation are linked in
/// statically) and the agent, which runs for days, uses a small part of it.
/// By default the kernel maps a neighbourhood of pages around each page of
/// code first touched ("fault-around", 64 KiB), which had the agent's code
/// alone at about 17 MB resident while idle (`bench/agent-idle.sh`). Once
/// started, the agent asks for its own code mapping to be paged on demand
/// only (`MADV_RANDOM`: no fault-around, no read-ahead) and lets the pages
/// start-up used go (`MADV_PAGEOUT`: clean file pages, read back if a reload
/// needs them again). Both are advice: on a kernel without them nothing
/// changes, and nothing is lost either way.
public enum CodeResidency {
    /// Lets go of the code pages used so far (start-up), and pages the rest on demand.
    public static func keepOnlyCodeInUse() {
        forEachCodeMapping { start, length in
            _ = madvise(start, length, MADV_RANDOM)
            _ = madvise(start, length, 21) // MADV_PAGEOUT (Linux 5.4), not in every libc's headers
        }
    }

    /// Calls `body` with every executable mapping of this program's own file.
    private static func forEachCodeMapping(_ body: (UnsafeMutableRawPointer, Int) -> Void) {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
              let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return }
        for line in maps.split(whereSeparator: \.isNewline) {
            // start-end perms offset device inode path
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].contains("x"), fields[5...].joined(separator: " ") == executable else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
            body(start, Int(bounds[1] - bounds[0]))
        }
    }
}
