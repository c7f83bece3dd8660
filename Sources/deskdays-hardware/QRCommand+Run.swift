import ArgumentParser
import DeskDaysCLI
import DeskDaysConfig
import Foundation
import QR
import QRAdapter

/// `qr make`: the code through libqrencode, the PNG through libpng.
extension QRCommand.Make {
    func runMake() throws {
        let code: QRCodeImage
        do { code = try QRCodeImage(payload: payload) } catch { throw CLIError("\(error); shorten --payload.") }
        if terminal { print(code.terminalText()) }
        if let out {
            do { try PNG.write(code.luma(scale: scale), to: out) } catch {
                throw CLIError("cannot write \(out) (\(error.reason)); check the folder exists and is writable.")
            }
            print("Wrote a \(code.size)×\(code.size)-module code to \(out).")
        }
    }
}

/// `qr scan`: images through libpng/libjpeg and zbar, or the camera.
extension QRCommand.Scan {
    func runScan() throws {
        let settings = try Session(global).configuration.qr
        let matcher = PayloadMatcher(payloads: settings.payloads, prefixes: settings.prefixes)
        if camera {
            switch try cameraScan(settings: settings, timeout: timeout) {
            case .matched(let rule, let payload):
                print("camera\t\(payload)\t\(rule)")
            case .noMatch(let seen):
                for payload in seen { print("camera\t\(payload)\t-") }
                throw CLIError("no code matching a [qr] rule was seen in \(Int(timeout)) s; hold the code steady, 20–40 cm from the camera.")
            }
            return
        }
        let scanner = ZBarScanner()
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
            for payload in payloads { print("\(path)\t\(payload)\t\(matcher.rule(for: payload) ?? "-")") }
        }
        if unreadable > 0 { throw ExitCode(1) }
    }
}

/// Runs an on-demand camera scan, turning camera trouble into one sentence.
func cameraScan(settings: QRSettings, timeout: Double) throws -> CameraScan.Outcome {
    if settings.payloads.isEmpty && settings.prefixes.allSatisfy(\.isEmpty) {
        printError("deskdays: note: [qr] has no payloads or prefixes, so no code can match.")
    }
    printError("Hold the code up to the camera (\(settings.device), up to \(Int(timeout)) s)…")
    do {
        return try CameraScan.run(settings: settings, timeout: timeout)
    } catch {
        throw CLIError(error.description)
    }
}
