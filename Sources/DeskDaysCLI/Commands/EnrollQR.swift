import ArgumentParser
import Foundation

/// `deskdays enroll qr`: read one QR code from the camera or an image and
/// add its text to `[qr] payloads` (or `prefixes`). The text is shown on the
/// user's own terminal and written to their config; it is never logged.
package struct EnrollQR: HardwareCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Add a QR code, from the camera or an image, as a check-in rule.",
        discussion: """
        Watches the camera of [qr] device for up to --timeout seconds for any QR code (or decodes \
        the code in --image, a PNG or JPEG file such as one made by `deskdays qr make`), prints its \
        text and adds it to [qr] payloads (with --prefix, to [qr] prefixes: every code starting \
        with it counts). The rest of the file is kept as written, comments included.
        """
    )

    @OptionGroup package var global: GlobalOptions

    @Option(help: "PNG or JPEG file holding the code, instead of the camera.")
    package var image: String?

    @Option(help: "Seconds to watch the camera.")
    package var timeout: Double = 30

    @Flag(help: "Add the text to [qr] prefixes instead of [qr] payloads.")
    package var prefix = false

    package func validate() throws {
        guard timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout must be between 0 and 600 seconds.")
        }
        if image?.isEmpty == true { throw ValidationError("--image is empty; give the path of a PNG or JPEG file.") }
    }
}
