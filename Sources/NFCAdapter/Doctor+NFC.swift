import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor

/// `deskdays doctor`'s checks of this method (docs/design.md "Check-in methods").
extension Doctor {
    /// NFC readers we know, by USB VID:PID (the table of udev/70-deskdays-nfc.rules).
    static let nfcReaders: [String: (name: String, pn533: Bool)] = [
        "072f:2200": ("ACS ACR122U", true),
        "072f:223b": ("ACS ACR1252U", false),
        "04e6:5591": ("SCM SCL3711", true),
        "04cc:2533": ("NXP PN533 board", true),
        "054c:02e1": ("Sony RC-S360", true),
    ]

    // MARK: - NFC

    public func nfc(_ settings: NFCSettings, pcscReaders: () -> NFCTagReader.PCSCAnswer) -> Section {
        guard settings.enabled else { return Section(name: "nfc", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.tags.isEmpty {
            findings.append(Finding(.problem, tr("no [[nfc.tags]] rule: every tap would be ignored"),
                                    fix: tr("`deskdays enroll nfc` and tap your desk tag")))
        } else {
            findings.append(Finding(.ok, trn("\(settings.tags.count) tag rule", "\(settings.tags.count) tag rules", settings.tags.count)))
        }
        let present = system.usbDevices()
        let readers = present.compactMap { Self.nfcReaders[$0] }
        for reader in readers.sorted(by: { $0.name < $1.name }) {
            findings.append(Finding(.ok, tr("reader found on USB: \(reader.name)")))
        }
        // The kernel's NFC stack (pn533_usb) binds PN533-based readers
        // itself; a bound reader is invisible to pcscd and libnfc alike.
        let unloadPN533 = "sudo modprobe -r pn533_usb pn533 nfc && echo 'blacklist pn533_usb' | sudo tee /etc/modprobe.d/deskdays-nfc.conf"
        let drivers = system.usbInterfaceDrivers()
        let held = present.filter { drivers[$0]?.contains("pn533_usb") == true }.compactMap { Self.nfcReaders[$0]?.name }.sorted()
        let pn533 = !held.isEmpty || system.moduleLoaded("pn533_usb")
        if !held.isEmpty {
            findings.append(Finding(.problem, tr("the kernel driver pn533_usb holds the \(held.joined(separator: tr(" and "))): pcscd and libnfc cannot open it"),
                                    fix: tr("\(unloadPN533), then unplug and replug the reader")))
        } else if pn533 {
            findings.append(Finding(readers.contains { $0.pn533 } ? .warning : .note,
                                    "the kernel module pn533_usb is loaded: it claims PN533-based readers (ACR122U, SCL3711) when they are plugged in",
                                    fix: unloadPN533))
        }
        if settings.backend != .libnfc {
            // Without a libnfc device to fall back on, PC/SC is the only way a tap can arrive.
            let pcscOnly = settings.backend == .pcsc || settings.connstring == nil
            let running = !system.processes(named: "pcscd").isEmpty
            let socketActivated = system.exists("\(system.run)/pcscd/pcscd.comm")
            switch pcscReaders() {
            case .readers(let names) where names.contains(where: { NFCTagReader.watches(reader: $0, only: settings.reader) }):
                let described = names.map { name in
                    NFCTagReader.watches(reader: name, only: settings.reader) ? name
                        : NFCTagReader.watches(reader: name, only: nil) ? tr("\(name) (not the [nfc] reader)") : tr("\(name) (SAM slot, not read)")
                }
                let list = described.joined(separator: ", ")
                findings.append(Finding(.ok, names.count == 1 ? tr("pcscd sees a reader: \(list)")
                                            : trn("pcscd sees \(names.count) reader: \(list)", "pcscd sees \(names.count) readers: \(list)", names.count)))
            case .readers(let names) where !names.isEmpty:
                findings.append(Finding(pcscOnly ? .problem : .warning,
                                        tr("pcscd sees no reader DeskDays reads: \(names.joined(separator: ", "))"),
                                        fix: settings.reader.map { tr("no reader's name contains \"\($0)\"; correct [nfc] reader (names as above) or remove it") }
                                            ?? tr("only SAM slots are listed; plug in a contactless reader")))
            case .readers:
                findings.append(Finding(pcscOnly ? .problem : .warning, tr("pcscd is running but sees no reader"),
                                        fix: pn533 ? tr("plug the reader in; `pcsc_scan` (package pcsc-tools) shows what pcscd sees; unload pn533_usb first (above)")
                                            : tr("plug the reader in; `pcsc_scan` (package pcsc-tools) shows what pcscd sees")))
            case .refused:
                findings.append(Finding(pcscOnly ? .problem : .warning,
                                        tr("pcscd refuses this session: it closed the connection at once, as its polkit policy does for a session that is not the active one at the seat (ssh, another user, a service started before login)"),
                                        fix: tr("run DeskDays in your desktop session, or allow your user with a polkit rule for org.debian.pcsc-lite.access_pcsc and access_card (hardware-notes.md, NFC)")))
            case .unreachable where running || socketActivated:
                findings.append(Finding(pcscOnly ? .problem : .warning, tr("pcscd does not answer"),
                                        fix: tr("sudo systemctl restart pcscd.socket pcscd, then run doctor again")))
            case .unreachable:
                let installed = ["/usr/sbin/pcscd", "/usr/bin/pcscd", "/sbin/pcscd"].contains { system.exists($0) }
                findings.append(Finding(pcscOnly ? .problem : .warning, tr("pcscd is not running"),
                                        fix: installed ? "sudo systemctl enable --now pcscd.socket"
                                            : "sudo apt-get install pcscd libccid && sudo systemctl enable --now pcscd.socket"))
            }
        }
        if settings.backend != .pcsc, let connstring = settings.connstring {
            // pn532_uart:/dev/ttyUSB0[:baud] names a serial device we can check.
            let parts = connstring.split(separator: ":", maxSplits: 2).map(String.init)
            if parts.count >= 2, parts[1].hasPrefix("/") {
                findings += serialDevice(parts[1], purpose: tr("libnfc device"), rule: "udev/70-deskdays-nfc.rules")
            }
        }
        if readers.isEmpty, settings.backend == .libnfc, settings.connstring == nil {
            findings.append(Finding(.problem, tr("no known NFC reader on USB, and no [nfc] connstring names one"),
                                    fix: tr("plug in the reader (supported ones: hardware-notes.md), or set [nfc] connstring")))
        }
        return Section(name: "nfc", summary: tr("enabled (backend \(settings.backend.rawValue))"), findings: findings)
    }
}
