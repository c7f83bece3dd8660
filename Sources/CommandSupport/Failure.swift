import Syscall
#if canImport(Glibc)
import Glibc
#endif

/// A user-facing failure: one sentence naming the problem and the fix.
package struct CLIError: Error, CustomStringConvertible {
    package var message: String
    package var code: Int32 = 1

    package init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }

    package var description: String { message }
}

/// Writes a line to standard error.
package func printError(_ message: String) {
    writeAll(STDERR_FILENO, message + "\n")
}

/// Writes `text` to `fd`, unbuffered; a closed pipe or terminal is ignored
/// (Foundation's `FileHandle.write` would trap on EPIPE and take the
/// process, an agent included, down with it; SIGPIPE is ignored where that matters).
package func writeAll(_ fd: Int32, _ text: String) {
    try? Syscall.writeAll(fd, text.utf8)
}
