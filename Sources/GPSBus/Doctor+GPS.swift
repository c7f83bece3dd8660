import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDoctor

/// `deskdays doctor`'s checks of this method (docs/design.md "Check-in methods").
extension Doctor {
    // MARK: - GPS

    public func gps(_ settings: GPSSettings, probe: GPSSourceProbe?, gpsdSendsFixes: () -> Bool) -> Section {
        guard settings.enabled else { return Section(name: "gps", summary: tr("disabled"), findings: []) }
        var findings: [Finding] = []
        if settings.geofences.isEmpty {
            findings.append(Finding(.problem, tr("no [[gps.geofences]]: no arrival can ever be detected"),
                                    fix: tr("stand at the office and run `deskdays enroll gps`")))
        } else {
            findings.append(Finding(.ok, trn("\(settings.geofences.count) geofence", "\(settings.geofences.count) geofences", settings.geofences.count)))
        }
        // Which source feeds the geofence: the configured one, or what `auto` takes from the bus now.
        var source = settings.source
        if let probe {
            let choice = probe.choice
            if settings.source == .auto {
                source = GPSSettings.Source(rawValue: choice.source.rawValue) ?? .serial
                findings.append(Finding(.ok, tr("source auto chose \(choice.source.rawValue): \(choice.reason)")))
            }
            findings += gpsServices(probe, source: source, configured: settings.source, gpsdSendsFixes: gpsdSendsFixes)
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
    func gpsServices(_ probe: GPSSourceProbe, source: GPSSettings.Source, configured: GPSSettings.Source,
                     gpsdSendsFixes: () -> Bool) -> [Finding] {
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
}
