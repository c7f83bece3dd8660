import Foundation
import Spawn
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A program that lives on while a test talks to it line by line. What the
/// test sends goes through a FIFO the test holds open (closing it ends the
/// program's input); what the program prints goes to a file, read as it
/// grows. Spawn hands a child no pipe (a pipe's descriptor was once closed
/// under its reader by another test's spawn), hence the FIFO and the file.
final class Conversation {
    let child: Child
    /// Its standard output.
    let output: String
    private var input: Int32 = -1
    private var returned = 0

    /// Starts `executable`; `input: false` gives it /dev/null instead of the FIFO.
    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL,
         input: Bool = true, stderr: Program.Sink = .discard) async throws {
        let name = folder.appendingPathComponent("conversation-\(UUID().uuidString.prefix(8))").path
        output = name + ".out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        if input {
            guard mkfifo(name + ".in", 0o600) == 0 else { throw HarnessError("mkfifo: \(errno)") }
            // Read and write: opening a FIFO so never blocks, and the program's reading end opens at once.
            self.input = open(name + ".in", O_RDWR | O_CLOEXEC)
            guard self.input >= 0 else { throw HarnessError("open \(name).in: \(errno)") }
            child = try await Child.start("/bin/sh", ["-c", #"fifo=$1; shift; exec "$@" < "$fifo""#, "sh", name + ".in", executable] + arguments,
                                          environment: environment, stdout: .file(output), stderr: stderr)
        } else {
            child = try await Child.start(executable, arguments, environment: environment, stdout: .file(output), stderr: stderr)
        }
    }

    /// The complete lines it printed so far.
    var lines: [String] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The next line it prints (nil when none came within `seconds`: a failure guard).
    func nextLine(seconds: Double = 60) async -> String? {
        guard await eventually(seconds: seconds, "line \(returned + 1) from \(output)", { lines.count > returned }) else { return nil }
        returned += 1
        return lines[returned - 1]
    }

    /// Takes every line printed so far as read: `nextLine` then waits for a new one.
    func skipPrinted() {
        returned = lines.count
    }

    /// Writes `line` and a newline to its input.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Ends its input (end of file once it read what was sent).
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// SIGKILL, then waits until it is gone.
    func kill9() async {
        child.signal(SIGKILL)
        _ = await child.wait(seconds: 60)
    }

    deinit { closeInput() }
}
