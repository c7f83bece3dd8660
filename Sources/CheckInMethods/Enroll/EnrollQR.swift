import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import QRAdapter
import Foundation
import QR

/// `deskdays enroll qr`: read one QR code from the camera or an image and
/// add its text to `[qr] payloads` (or `prefixes`). The text is shown on the
/// user's own terminal and written to their config; it is never logged.
package struct EnrollQR: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: tr("Add a QR code, from the camera or an image, as a check-in rule."),
        discussion: tr("""
        Watches the camera of [qr] device for up to --timeout seconds for any QR code (or decodes \
        the code in --image, a PNG or JPEG file such as one made by `deskdays qr make`), prints its \
        text and adds it to [qr] payloads (with --prefix, to [qr] prefixes: every code starting \
        with it counts). The rest of the file is kept as written, comments included.
        """)
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("PNG or JPEG file holding the code, instead of the camera.")))
    var image: String?

    @Option(help: ArgumentHelp(tr("Seconds to watch the camera.")))
    var timeout: Double = 30

    @Flag(help: ArgumentHelp(tr("Add the text to [qr] prefixes instead of [qr] payloads.")))
    var prefix = false

    package func validate() throws {
        guard timeout > 0, timeout <= 600 else {
            throw ValidationError(tr("--timeout must be between 0 and 600 seconds."))
        }
        if image?.isEmpty == true { throw ValidationError(tr("--image is empty; give the path of a PNG or JPEG file.")) }
    }
}

/// The enrolment's work.
extension EnrollQR {
    package func run() throws {
        // Before the camera opens: a broken file cannot take the new code anyway.
        let settings = try ConfigLoader.load(path: global.configPath).qr
        let payload = try image.map(code(in:)) ?? codeFromCamera(device: settings.device)
        guard !payload.isEmpty else {
            throw CLIError(tr("the code holds no text, so it cannot be a rule; make one with `deskdays qr make`."))
        }
        // Quoted: a code may carry control characters meant for no terminal.
        print(tr("Code: \(ConfigEditor.quoted(payload))"))
        let list = prefix ? "prefixes" : "payloads"
        let outcome: ConfigEditor.Addition
        do {
            outcome = try ConfigEditor.addString(payload, toArray: list, inTable: "qr", file: global.configPath,
                                                 values: prefix ? \.qr.prefixes : \.qr.payloads)
        } catch let error as ConfigError {
            throw error
        } catch let error as ConfigEditor.ManualEditNeeded {
            throw CLIError(tr("cannot add the code to \(global.configPath) with certainty, so nothing was changed; \(error.instruction) by hand."))
        } catch {
            throw CLIError(tr("cannot write \(global.configPath) (\(ConfigLoader.reason(error))); check the file and its folder are writable."))
        }
        switch outcome {
        case .added: print(tr("Added the code to [qr] \(list) in \(global.configPath)."))
        case .alreadyPresent: print(tr("The code is already in [qr] \(list) in \(global.configPath); nothing was changed."))
        }
        Enrollment.remindIfOff(settings.enabled, method: "QR", section: "qr")
    }

    /// The one code in the image at `path`.
    private func code(in path: String) throws -> String {
        let frame: LumaFrame
        do { frame = try ImageFile.loadLuma(path: path) } catch { throw CLIError("\(error).") }
        let codes = QRDecoder().scan(frame).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard let first = codes.first else {
            throw CLIError(tr("no QR code was found in \(path); use a sharper, larger or straighter picture of the code."))
        }
        guard codes.count == 1 else {
            throw CLIError(trn("\(path) holds \(codes.count) different QR code; crop it to the one code to enroll.",
                               "\(path) holds \(codes.count) different QR codes; crop it to the one code to enroll.", codes.count))
        }
        return first
    }

    /// The one code the camera sees first.
    private func codeFromCamera(device: String) throws -> String {
        printError(tr("Hold the code up to the camera (\(device), up to \(Int(timeout)) s)…"))
        let codes: [String]
        do { codes = try CameraScan.firstCodes(device: device, timeout: timeout) } catch { throw CLIError(error.description) }
        guard let first = codes.first else {
            throw CLIError(tr("no QR code was seen in \(Int(timeout)) s; hold the code steady, 20–40 cm from the camera, or raise --timeout."))
        }
        guard codes.count == 1 else {
            throw CLIError(trn("\(codes.count) different QR code was in view; show the camera only the one to enroll.",
                               "\(codes.count) different QR codes were in view; show the camera only the one to enroll.", codes.count))

        }

        return first
    }
}
