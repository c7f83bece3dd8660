import Localization
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import QRAdapter

/// A payload as one field of a `qr scan` line: a backslash, tab, line break
/// or other control character would break the line into fields or lines, so
/// they are written `\\`, `\t`, `\n`, `\r` and `\xHH` (a vCard or a
/// two-line code stays one line; everything else is shown as it is).
package func shown(_ payload: String) -> String {
    var out = ""
    for scalar in payload.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\x" + String(repeating: "0", count: scalar.value < 0x10 ? 1 : 0) + String(scalar.value, radix: 16, uppercase: true)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Runs an on-demand camera scan, turning camera trouble into one sentence.
package func cameraScan(settings: QRSettings, timeout: Double) throws -> CameraScan.Outcome {
    if settings.payloads.isEmpty && settings.prefixes.allSatisfy(\.isEmpty) {
        printError("deskdays: " + tr("note: [qr] has no payloads or prefixes, so no code can match."))
    }
    printError(tr("Hold the code up to the camera (\(settings.device), up to \(Int(timeout)) s)…"))

    do {
        return try CameraScan.run(settings: settings, timeout: timeout)
    } catch {
        throw CLIError(error.description)
    }
}
