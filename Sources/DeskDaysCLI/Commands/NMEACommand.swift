import Syscall
import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import Foundation
import NMEA

/// `deskdays nmea …`: tools for NMEA 0183 data.
struct NMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: tr("Work with NMEA 0183 data from a GPS receiver."),
        subcommands: [Decode.self]
    )

    /// `deskdays nmea decode [FILE]`: one JSON line per navigation cycle.
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: tr("Decode NMEA (a file, or standard input) to JSON lines of fixes."),
            discussion: tr("""
            One line per navigation cycle (the sentences sharing one UTC time): \
            {"time","lat","lon","mode","hdop","sats"}. mode is 1 (no fix), 2 (2D) or 3 (3D); \
            lat/lon are null without a fix; time is RFC 3339 UTC, or hh:mm:ss.sssZ when the \
            receiver sent no date. Sentences with a bad or missing checksum are rejected.
            """)
        )

        @Argument(help: ArgumentHelp(tr("NMEA capture to read (default: standard input).")))
        var file: String?

        @Flag(help: ArgumentHelp(tr("Print sentence and rejection counts on standard error at the end.")))
        var stats = false

        func run() throws {
            let descriptor: Int32
            if let file {
                descriptor = open(file, O_RDONLY)
                guard descriptor >= 0 else {
                    let reason = String(cString: strerror(errno))
                    throw CLIError(tr("cannot open \(file) (\(reason)); check the path."))
                }
            } else {
                descriptor = STDIN_FILENO
            }
            defer { if descriptor != STDIN_FILENO { close(descriptor) } }

            var decoder = NMEAStreamDecoder()
            var output: [UInt8] = []
            output.reserveCapacity(1 << 17)
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { input.deallocate() }
            func flushOutput() {
                try? Syscall.writeAll(STDOUT_FILENO, output)
                output.removeAll(keepingCapacity: true)
            }
            while true {
                guard case .success(let count) = Syscall.read(descriptor, into: input), count > 0 else { break }
                decoder.feed(buffer: UnsafeRawBufferPointer(rebasing: input[..<count])) { fix in
                    fix.appendJSONLine(to: &output)
                }
                if output.count > 1 << 16 { flushOutput() }
            }
            decoder.finish { fix in fix.appendJSONLine(to: &output) }
            flushOutput()
            if stats {
                let s = decoder.statistics
                let text = tr("sentences \(s.sentences), bad checksum \(s.badChecksum), missing checksum \(s.missingChecksum), spliced \(s.spliced), malformed \(s.malformed), too long \(s.tooLong), undecodable \(decoder.undecodable)")
                printError(text)
            }
        }
    }
}
