import ArgumentParser
import Foundation

/// `deskdays qr …`: make a printable office code, decode codes in images or
/// from the camera.
package struct QRCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Make and read QR codes for QR check-in.",
        subcommands: [Make.self, Scan.self, BenchFrames.self]
    )

    /// `deskdays qr make --payload TEXT --out FILE.png [--terminal]`.
    package struct Make: HardwareCommand {
        package init() {}

        package static let configuration = CommandConfiguration(
            abstract: "Make a printable QR code (PNG), or draw it on the terminal.",
            discussion: "Put the same text in [qr] payloads (exact) or start it with one of [qr] prefixes.")

        @Option(help: "The text the code carries, e.g. deskdays:office:hq.")
        package var payload: String

        @Option(help: "PNG file to write.")
        package var out: String?

        @Option(help: "Pixels a module in the PNG (default 12: about 5 cm for a short payload at 300 dpi).")
        package var scale: Int = 12

        @Flag(help: "Draw the code on the terminal with UTF-8 half blocks.")
        package var terminal = false

        package func validate() throws {
            if out == nil && !terminal { throw ValidationError("Give --out FILE.png, --terminal, or both.") }
            if payload.isEmpty { throw ValidationError("--payload is empty; give the text the code should carry.") }
            guard (1...100).contains(scale) else { throw ValidationError("--scale must be 1 to 100 pixels a module.") }
        }
    }

    /// `deskdays qr scan IMAGE... [--camera]`.
    package struct Scan: HardwareCommand {
        package init() {}

        package static let configuration = CommandConfiguration(
            abstract: "Decode QR codes in PNG or JPEG files, or from the camera, and show the rule each matches.",
            discussion: """
            One line per code: FILE<TAB>PAYLOAD<TAB>RULE (rule is "-" when no [qr] rule matches); \
            a file without a code prints FILE<TAB>-. With --camera, the [qr] device is opened for \
            up to --timeout seconds and the scan stops at the first code that matches a rule.
            """)

        @OptionGroup package var global: GlobalOptions

        @Argument(help: "PNG or JPEG files.")
        package var images: [String] = []

        @Flag(help: "Read from the camera ([qr] device) instead of files.")
        package var camera = false

        @Option(help: "Seconds to watch the camera (with --camera).")
        package var timeout: Double = 30

        package func validate() throws {
            if camera == !images.isEmpty { throw ValidationError("Give image files or --camera, not both and not neither.") }
            guard timeout > 0 && timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds.") }
        }
    }
}
