import Localization
import DeskDaysConfig
import DeskDaysCore
import GPSBus
import NFCAdapter
import QRAdapter
import Foundation
import Wired

/// `deskdays doctor`: for each enabled method, what the machine offers and
/// what stands in the way, each problem with its remedy.
///
/// Everything is read through a `SystemView`, so the checks run against a
/// scratch `/proc` and `/sys` in tests. Nothing here opens a device: diagnosing
/// must not disturb a running agent. The questions asked of daemons are
/// read-only and injected, so tests give the answers: pcscd's list of
/// readers, and what the system bus says about gpsd and ModemManager (plus,
/// when gpsd is there, whether it sends a fix within a moment).
public struct Doctor: Sendable {
    /// One observation (in DeskDaysCore, so the desktop reports its own without linking this module).
    public typealias Finding = DoctorFinding

    /// The findings about one method (or the configuration, or the agent).
    public struct Section: Sendable, Equatable {
        public var name: String
        public var summary: String
        public var findings: [Finding]

        public init(name: String, summary: String, findings: [Finding]) {
            self.name = name
            self.summary = summary
            self.findings = findings
        }
    }

    /// NFC readers we know, by USB VID:PID (the table of udev/70-deskdays-nfc.rules).
    static let nfcReaders: [String: (name: String, pn533: Bool)] = [
        "072f:2200": ("ACS ACR122U", true),
        "072f:223b": ("ACS ACR1252U", false),
        "04e6:5591": ("SCM SCL3711", true),
        "04cc:2533": ("NXP PN533 board", true),
        "054c:02e1": ("Sony RC-S360", true),
    ]

    let system: SystemView
    /// What pcscd answers when asked for its readers.
    let pcscReaders: @Sendable () -> NFCTagReader.PCSCAnswer
    /// What the system bus says about the GPS services for `[gps]`; nil when not asked (then only the serial device is checked).
    let gpsProbe: @Sendable (GPSSettings) -> GPSSourceProbe?
    /// Whether gpsd sends a fix with a position within a moment.
    let gpsdSendsFixes: @Sendable () -> Bool
    /// The default gateways now (rtnetlink, read-only); nil when they cannot be read.
    let defaultGateways: @Sendable () -> [Gateway]?

    public init(system: SystemView = SystemView(), pcscReaders: @escaping @Sendable () -> NFCTagReader.PCSCAnswer = { .unreachable },
                gpsProbe: @escaping @Sendable (GPSSettings) -> GPSSourceProbe? = { _ in nil },
                gpsdSendsFixes: @escaping @Sendable () -> Bool = { false },
                defaultGateways: @escaping @Sendable () -> [Gateway]? = { nil }) {
        self.system = system
        self.pcscReaders = pcscReaders
        self.gpsProbe = gpsProbe
        self.gpsdSendsFixes = gpsdSendsFixes
        self.defaultGateways = defaultGateways
    }

    /// Whether any finding means an enabled method cannot work.
    public static func failed(_ sections: [Section]) -> Bool {
        sections.contains { $0.findings.contains { $0.level == .problem } }
    }

    /// A section saying that no method is enabled, when none is (each
    /// method's own checks are in its entry of `CheckInMethod.all`).
    public func noMethodNote(_ configuration: Configuration) -> [Section] {
        var sections: [Section] = []
        if !configuration.anyMethodEnabled {
            sections.append(Section(name: tr("methods"), summary: tr("none enabled"), findings: [

                Finding(.note, tr("no check-in method is enabled: only manual check-ins, reminders and the fallback work"),
                        fix: tr("enable one in the configuration, e.g. `deskdays enroll nfc` or `deskdays enroll gps`, then `enabled = true` in its section")),
            ]))
        }
        return sections
    }

    // MARK: - NFC

    public func nfc(_ settings: NFCSettings) -> Section {
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

    // MARK: - GPS

    public func gps(_ settings: GPSSettings) -> Section {
        guard settings.enabled else { return Section(name: "gps", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.geofences.isEmpty {
            findings.append(Finding(.problem, tr("no [[gps.geofences]]: no arrival can ever be detected"),
                                    fix: tr("stand at the office and run `deskdays enroll gps`")))
        } else {
            findings.append(Finding(.ok, trn("\(settings.geofences.count) geofence", "\(settings.geofences.count) geofences", settings.geofences.count)))
        }
        // Which source feeds the geofence: the configured one, or what `auto` takes from the bus now.
        let probe = gpsProbe(settings)
        var source = settings.source
        if let probe {
            let choice = probe.choice
            if settings.source == .auto {
                source = GPSSettings.Source(rawValue: choice.source.rawValue) ?? .serial
                findings.append(Finding(.ok, tr("source auto chose \(choice.source.rawValue): \(choice.reason)")))
            }
            findings += gpsServices(probe, source: source, configured: settings.source)
        } else if source == .auto {
            source = .serial
        }
        guard source == .serial else {
            return Section(name: "gps", summary: settings.source == .auto ? tr("enabled (source \(source.rawValue), by auto)")
                               : tr("enabled (source \(source.rawValue))"), findings: findings)
        }
        findings += serialDevice(settings.device, purpose: tr("GPS receiver"), rule: "udev/70-deskdays-gps.rules")
        let modemManager = system.processes(named: "ModemManager")
        if !modemManager.isEmpty {
            findings.append(Finding(.warning, tr("ModemManager is running: it probes new serial ports with AT commands, which can hold or confuse a GPS receiver"),
                                    fix: tr("install udev/70-deskdays-gps.rules (sets ID_MM_DEVICE_IGNORE) or `sudo systemctl disable --now ModemManager`")))
        }
        return Section(name: "gps", summary: tr("enabled (\(settings.device), \(settings.baud) baud)"), findings: findings)
    }

    /// gpsd and ModemManager as the bus shows them, for the `source` in use.
    func gpsServices(_ probe: GPSSourceProbe, source: GPSSettings.Source, configured: GPSSettings.Source) -> [Finding] {
        var findings: [Finding] = []
        if let problem = probe.busProblem, source != .serial {
            findings.append(Finding(.problem, tr("no system bus (\(problem)): gpsd's and ModemManager's fixes come over it"),
                                    fix: tr("check DBUS_SYSTEM_BUS_ADDRESS, or `systemctl status dbus`")))
            return findings
        }
        switch source {
        case .gpsd:
            if !probe.gpsdOnBus {
                findings.append(Finding(.problem, tr("gpsd is not on the system bus"),
                                        fix: tr("`sudo systemctl start gpsd` (Debian's gpsd sends its fixes over D-Bus), or set [gps] source = \"auto\"")))
            } else if gpsdSendsFixes() {
                findings.append(Finding(.ok, tr("gpsd is on the system bus and sends fixes")))
            } else {
                findings.append(Finding(.warning, tr("gpsd is on the system bus but sent no fix with a position in 2 s"),
                                        fix: tr("give the receiver a view of the sky; `gpsmon` or `cgps` (package gpsd-clients) show what gpsd reads, `gpsctl` which devices it has")))
            }
        case .modemmanager:
            if !probe.modemManagerRunning {
                findings.append(Finding(.problem, tr("ModemManager is not running"), fix: tr("`sudo systemctl start ModemManager`, or set [gps] source = \"auto\"")))
            } else if let usable = probe.modems.first(where: \.isUsable) {
                findings.append(Finding(.ok, tr("ModemManager's modem \(usable.number) gives GPS NMEA locations and signals them")))
            } else if let capable = probe.modems.first(where: \.hasGPS), let problem = capable.problem {
                findings.append(Finding(.problem, problem, fix: tr("`deskdays enroll gps --source modemmanager` (asks ModemManager, which asks polkit)")))
            } else {
                findings.append(Finding(.problem, tr("ModemManager is running but has no modem that can give GPS positions"),
                                        fix: tr("`mmcli -L` lists the modems; a WWAN modem's GNSS needs the modem enabled and its SIM unlocked; else set [gps] source = \"serial\"")))
            }
        case .serial, .auto:
            break
        }
        if configured == .auto, source != .modemmanager, probe.modemManagerRunning, !probe.modems.contains(where: \.hasGPS) {
            findings.append(Finding(.note, tr("ModemManager is running with no location-capable modem")))
        }
        return findings
    }

    /// Existence, kind, permission and other holders of a serial device.
    func serialDevice(_ path: String, purpose: String, rule: String) -> [Finding] {
        switch system.node(at: path) {
        case .missing:
            return [Finding(.problem, tr("\(path) does not exist (\(purpose) unplugged, or another name)"),
                            fix: tr("plug it in and look at `ls -l /dev/ttyACM* /dev/ttyUSB* /dev/gps*`; install \(rule) for a stable name, then set the device in the configuration"))]
        case .other:
            return [Finding(.problem, tr("\(path) is not a character device"), fix: tr("point the configuration at the receiver's tty, e.g. /dev/ttyACM0"))]
        case .characterDevice:
            var findings: [Finding] = []
            if system.canReadWrite(path) {
                findings.append(Finding(.ok, tr("\(path) is present and readable")))
            } else {
                findings.append(Finding(.problem, tr("no permission to read and write \(path)"),
                                        fix: tr("install \(rule) (gives the logged-in user access) or `sudo usermod -aG dialout $USER` and log in again")))
            }
            let holders = system.holders(of: path)
            if holders.contains(where: { $0.hasPrefix("gpsd ") }) {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", ")): gpsd owns the receiver, and a second reader gets nothing or garbage"),
                                        fix: tr("set [gps] source = \"gpsd\" (or \"auto\") to read gpsd's fixes over the system bus")))
            } else if holders.contains(where: { $0.hasPrefix("ModemManager ") }) {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", ")): ModemManager took the port"),
                                        fix: tr("install udev/70-deskdays-gps.rules (ID_MM_DEVICE_IGNORE), or, if it is the modem's own GNSS port, set [gps] source = \"modemmanager\"")))
            } else if !holders.isEmpty {
                findings.append(Finding(.warning, tr("\(path) is open in \(holders.joined(separator: ", "))"),
                                        fix: tr("stop that program or give it another device")))
            }
            return findings
        }
    }

    // MARK: - QR and Wi-Fi

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

    public func wifi(_ settings: WiFiSettings) -> Section {
        guard settings.enabled else { return Section(name: "wifi", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.networks.isEmpty {
            findings.append(Finding(.problem, tr("no [[wifi.networks]]: no network would match"), fix: tr("connect to the office network and run `deskdays enroll wifi`")))
        }
        for network in settings.networks where network.bssids.isEmpty {
            findings.append(Finding(.warning, tr("the office network \"\(network.name)\" has no BSSID pin: the same network name at home (or a corporate remote access point) would count"),
                                    fix: tr("at the office, `deskdays enroll wifi --pin --name \(network.name)` and remove the old block")))
        }
        let interfaces = system.wirelessInterfaces()
        if interfaces.isEmpty {
            findings.append(Finding(.problem, tr("no wireless interface (nl80211) on this machine"),
                                    fix: tr("check `iw dev`; the Wi-Fi card or its driver is missing")))
        } else {
            let list = interfaces.joined(separator: ", ")
            findings.append(Finding(.ok, trn("wireless interface: \(list)", "wireless interfaces: \(list)", interfaces.count)))
        }
        return Section(name: "wifi", summary: tr("enabled"), findings: findings)
    }

    // MARK: - Wired

    /// Whether the gateway the machine routes through now is one of the
    /// `[[wired.networks]]`, named by the rule only: the MAC is never printed.
    public func wired(_ settings: WiredSettings) -> Section {
        guard settings.enabled else { return Section(name: "wired", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.networks.isEmpty {
            findings.append(Finding(.problem, tr("no [[wired.networks]]: no gateway would match"),
                                    fix: tr("docked at the office, run `deskdays enroll wired`")))
        } else {
            findings.append(Finding(.ok, trn("\(settings.networks.count) wired network", "\(settings.networks.count) wired networks", settings.networks.count)))
        }
        guard let gateways = defaultGateways() else {
            findings.append(Finding(.problem, tr("the routing table cannot be read over rtnetlink"),
                                    fix: tr("run doctor outside any sandbox that refuses AF_NETLINK; the agent needs it too")))
            return Section(name: "wired", summary: tr("enabled"), findings: findings)
        }
        if gateways.isEmpty {
            findings.append(Finding(.note, tr("no default gateway now (not docked, or the link is down): nothing to match until there is one")))
        }
        let matcher = GatewayMatcher(settings)
        for gateway in gateways {
            let name = gateway.interfaceName, family = gateway.family
            if gateway.mac == nil {
                findings.append(Finding(.note, tr("the default gateway on \(name) (\(family)) is not resolved yet: the kernel learns its address when the machine first talks to it, and the agent waits for that")))
            } else if let rule = matcher.rule(for: gateway) {
                findings.append(Finding(.ok, tr("the default gateway on \(name) (\(family)) is the office network \"\(rule)\"")))
            } else {
                findings.append(Finding(.note, tr("the default gateway on \(name) (\(family)) is none of the configured networks (not at the office now?)"),

                                        fix: tr("docked at the office, `deskdays enroll wired` adds its gateway")))
            }
        }
        return Section(name: "wired", summary: tr("enabled"), findings: findings)
    }
}
