import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor

/// `deskdays doctor`'s checks of this method (docs/design.md "Check-in methods").
extension Doctor {
    public func qr(_ settings: QRSettings) -> Section {
        // Which decoders this build links, first to last, whether or not [qr] is on.
        let names = QRDecoder.decoders
        let decoders = Finding(.note, tr("QR decoders in this build: \(names[0]), then \(names[1]) when it finds nothing"))
        guard settings.enabled else { return Section(name: "qr", summary: tr("disabled"), findings: [decoders]) }
        var findings: [Finding] = [decoders]
        if settings.payloads.isEmpty, settings.prefixes.isEmpty {
            findings.append(Finding(.problem, tr("no [qr] payloads or prefixes: no code would match"), fix: tr("`deskdays enroll qr` with the office code in view")))
        }
        switch system.node(at: settings.device) {
        case .missing:
            findings.append(Finding(.problem, tr("\(settings.device) does not exist (no camera, or another name)"),
                                    fix: tr("plug in the camera and look at `ls -l /dev/video*`; set [qr] device")))
        case .other:
            findings.append(Finding(.problem, tr("\(settings.device) is not a character device"), fix: tr("set [qr] device to the camera, e.g. /dev/video0")))
        case .characterDevice:
            if system.canReadWrite(settings.device) {
                findings.append(Finding(.ok, tr("\(settings.device) is present and accessible")))
            } else {
                findings.append(Finding(.problem, tr("no permission to open \(settings.device)"),
                                        fix: tr("install udev/70-deskdays-camera.rules (uaccess) or `sudo usermod -aG video $USER` and log in again")))
            }
            let holders = system.holders(of: settings.device)
            if !holders.isEmpty {
                findings.append(Finding(.warning, tr("the camera is busy: open in \(holders.joined(separator: ", "))"),
                                        fix: tr("close the video call or camera app while scanning")))
            }
        }
        return Section(name: "qr", summary: tr("enabled (\(settings.device), \(settings.mode.rawValue))"), findings: findings)
    }
}
