import Foundation
import Spawn
import TestSupport

/// External programs the render tests drive, and PNG facts they check.
enum Tools {
    /// The program's path on PATH, or nil.
    static func path(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func has(_ name: String) -> Bool { path(name) != nil }

    /// Runs a program to completion with no pipes (output to /dev/null, so a
    /// child that lingers, like Chromium's helpers, cannot hold a pipe open).
    /// Returns the exit status; kills it after `timeout` seconds (a guard
    /// against a hang, printed, never a measure).
    static func run(_ name: String, _ arguments: [String], timeout: Double = 60) async throws -> Int32 {
        try await finish(Child.start(path(name)!, arguments), name, timeout: timeout)
    }

    /// Runs a program to completion with its standard output in `file`; returns the exit status.
    static func runCapturing(_ name: String, _ arguments: [String], to file: URL, timeout: Double = 60) async throws -> Int32 {
        FileManager.default.createFile(atPath: file.path, contents: nil)
        return try await finish(Child.start(path(name)!, arguments, stdout: .file(file.path)), name, timeout: timeout)
    }

    private static func finish(_ child: Child, _ name: String, timeout: Double) async -> Int32 {
        if let status = await child.wait(seconds: timeout) { return status }
        print("\(name) still ran after \(timeout) s: killed")
        child.signal(SIGKILL)
        return await child.wait()
    }

    /// Width and height from a PNG's IHDR chunk, or nil when the bytes are not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
