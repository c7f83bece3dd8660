import Localization
import CommandSupport
import ArgumentParser
import CheckInMethods
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysCore
import Foundation
import QR
import QRAdapter

/// `deskdays qr …`: make a printable office code, decode codes in images or
/// from the camera.
struct QRCommand: ParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: Hardware.Command.qr.rawValue,
        abstract: Hardware.Command.qr.abstract,
        subcommands: [Make.self, Scan.self, BenchFrames.self]
    )

    /// `deskdays qr make --payload TEXT --out FILE.png [--terminal] [--ec L|M|Q|H]`.
    struct Make: ParsableCommand {
        init() {}

        static let configuration = CommandConfiguration(
            commandName: "make",
            abstract: tr("Make a printable QR code (PNG), or draw it on the terminal."),
            discussion: tr("Put the same text in [qr] payloads (exact) or start it with one of [qr] prefixes."))

        @Option(help: ArgumentHelp(tr("The text the code carries, e.g. deskdays:office:hq.")))
        var payload: String

        @Option(help: ArgumentHelp(tr("PNG file to write.")))
        var out: String?

        @Option(help: ArgumentHelp(tr("Pixels a module in the PNG (default 12: about 5 cm for a short payload at 300 dpi).")))
        var scale: Int = 12

        @Flag(help: ArgumentHelp(tr("Draw the code on the terminal with UTF-8 half blocks.")))
        var terminal = false

        @Option(help: ArgumentHelp(tr("Error correction level L, M, Q or H (default H: a code still reads with 30 % of it damaged)."),
                                   valueName: "level"))
        var ec = "H"

        /// The level `--ec` names (validated).
        var level: QRCodeImage.Level { QRCodeImage.Level(rawValue: ec.uppercased()) ?? .H }

        func validate() throws {
            if out == nil && !terminal { throw ValidationError(tr("Give --out FILE.png, --terminal, or both.")) }
            if QRCodeImage.Level(rawValue: ec.uppercased()) == nil { throw ValidationError(tr("--ec must be L, M, Q or H.")) }
            if payload.isEmpty { throw ValidationError(tr("--payload is empty; give the text the code should carry.")) }
            guard (1...100).contains(scale) else { throw ValidationError(tr("--scale must be 1 to 100 pixels a module.")) }
        }
    }

    /// `deskdays qr scan IMAGE... [--camera]`.
    struct Scan: ParsableCommand {
        init() {}

        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: tr("Decode QR codes in PNG or JPEG files, or from the camera, and show the rule each matches."),
            discussion: tr("""
            One line per code: FILE<TAB>PAYLOAD<TAB>RULE (rule is "-" when no [qr] rule matches); \
            a file without a code prints FILE<TAB>-. With --camera, the [qr] device is opened for \
            up to --timeout seconds and the scan stops at the first code that matches a rule.
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp(tr("PNG or JPEG files.")))
        var images: [String] = []

        @Flag(help: ArgumentHelp(tr("Read from the camera ([qr] device) instead of files.")))
        var camera = false

        @Option(help: ArgumentHelp(tr("Seconds to watch the camera (with --camera).")))
        var timeout: Double = 30

        func validate() throws {
            if camera == !images.isEmpty { throw ValidationError(tr("Give image files or --camera, not both and not neither.")) }
            guard timeout > 0 && timeout <= 600 else { throw ValidationError(tr("--timeout must be between 0 and 600 seconds.")) }
        }
    }
}

/// `qr make`: the code through libqrencode, the PNG through libpng.
extension QRCommand.Make {
    func run() throws {
        let code: QRCodeImage
        do { code = try QRCodeImage(payload: payload, level: level) } catch {
            throw CLIError(tr("\(error); shorten --payload or choose a lower --ec."))
        }
        if terminal { print(code.terminalText()) }
        if let out {
            do { try PNG.write(code.luma(scale: scale), to: out) } catch {
                throw CLIError(tr("cannot write \(out) (\(error.reason)); check the folder exists and is writable."))
            }
            print(tr("Wrote a \(code.size)×\(code.size)-module code to \(out)."))
        }
        print(tr("Error correction level \(code.level.rawValue) (it still reads with \(code.level.recoverablePercent) % of the code damaged), quiet zone \(QRCodeImage.quietZone) modules."))
    }
}

/// `qr scan`: images through libpng/libjpeg and the decoders (ZXing, then zbar), or the camera.
extension QRCommand.Scan {
    func run() throws {
        let settings = try Session(global).configuration.qr
        let matcher = PayloadMatcher(payloads: settings.payloads, prefixes: settings.prefixes)
        if camera {
            switch try cameraScan(settings: settings, timeout: timeout) {
            case .matched(let rule, let payload):
                print("camera\t\(shown(payload))\t\(rule)")
            case .noMatch(let seen):
                for payload in seen { print("camera\t\(shown(payload))\t-") }
                throw CLIError(tr("no code matching a [qr] rule was seen in \(Int(timeout)) s; hold the code steady, 20–40 cm from the camera."))
            }
            return
        }
        let scanner = QRDecoder()
        var unreadable = 0
        for path in images {
            let frame: LumaFrame
            do { frame = try ImageFile.loadLuma(path: path) } catch {
                printError("deskdays: \(error)")
                unreadable += 1
                continue
            }
            let payloads = scanner.scan(frame)
            if payloads.isEmpty { print("\(path)\t-") }
            for payload in payloads { print("\(path)\t\(shown(payload))\t\(matcher.rule(for: payload) ?? "-")") }
        }
        if unreadable > 0 { throw ExitCode(1) }
    }
}
