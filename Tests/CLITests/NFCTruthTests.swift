import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `doctor` and `enroll nfc` tell the truth about the NFC stack, through the
/// real libpcsclite and libnfc: a pcscd that refuses the session (as its
/// polkit policy does) is named with the fix, and libnfc's own raw error
/// lines never reach the user.
struct NFCTruthTests {
    /// pcscd with polkit refuses a client by closing its connection without
    /// an answer once polkit has said no (pcsc-lite's ContextThread); this
    /// stand-in does the same on a private socket.
    final class RefusingPCSCD {
        let process: Child
        let socket: String

        init(in folder: URL) async throws {
            let socket = folder.appendingPathComponent("pcscd.comm").path
            self.socket = socket
            process = try await Child.start("/usr/bin/python3", ["-c", """
            import os, socket, sys, time
            s = socket.socket(socket.AF_UNIX)
            # Bound under another name and renamed once listening: a client that
            # finds the socket never meets the moment between bind and listen.
            s.bind(sys.argv[1] + ".new")
            s.listen(8)
            os.rename(sys.argv[1] + ".new", sys.argv[1])
            while True:
                c, _ = s.accept()
                # At once: the client's first request comes after the close,
                # as on a loaded machine where polkit answers first.
                c.close()
            """, socket])
            let process = process
            await eventually("the stand-in pcscd's socket \(socket)") {
                FileManager.default.fileExists(atPath: socket) || !process.isRunning
            }
            guard FileManager.default.fileExists(atPath: socket) else { throw HarnessError("the stand-in pcscd did not bind its socket") }
        }

        deinit { process.signal(SIGKILL) }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "/usr/bin/python3 missing"))
    func doctorNamesAPcscdThatRefusesTheSession() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [nfc]
        enabled = true
        backend = "pcsc"

        [[nfc.tags]]
        name = "desk"
        uid = "04A2246A2F6E80"
        """)
        let pcscd = try await RefusingPCSCD(in: cli.folder)
        let result = try await cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path],
                                 environment: ["PCSCLITE_CSOCK_NAME": pcscd.socket])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("PROBLEM pcscd refuses this session"), "\(result.stdout)")
        #expect(result.stdout.contains("access_pcsc"), "the fix names the polkit action: \(result.stdout)")

        // A socket nobody serves is a different story: not running / not answering.
        let gone = try await cli.run(["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path],
                               environment: ["PCSCLITE_CSOCK_NAME": cli.folder.appendingPathComponent("nobody.comm").path])
        #expect(!gone.stdout.contains("refuses this session"), "\(gone.stdout)")
    }

    /// libnfc prints "error\tlibnfc.buses.usbbus\tUnable to find USB busses …"
    /// on machines without USB access (this one, CI) unless told otherwise.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libnfc.so.6")
                    || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libnfc.so.6"), "libnfc6 missing"))
    func libnfcsOwnLinesStayOutOfTheOutput() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["enroll", "nfc", "--backend", "libnfc", "--connstring", "pn532_uart:/dev/deskdays-no-such-reader",
                                  "--timeout", "1"])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("libnfc."), "raw libnfc lines: \(result.stderr)")
        #expect(!result.stderr.contains("Unable to find USB busses"), "\(result.stderr)")
        #expect(!result.stderr.isEmpty, "our own sentence says what went wrong")

        // The user may still ask libnfc to speak (to debug a reader).
        let loud = try await cli.run(["enroll", "nfc", "--backend", "libnfc", "--connstring", "pn532_uart:/dev/deskdays-no-such-reader",
                                "--timeout", "1"], environment: ["LIBNFC_LOG_LEVEL": "3"])
        #expect(loud.stderr.contains("libnfc."), "LIBNFC_LOG_LEVEL set by the user is kept: \(loud.stderr)")
    }
}
