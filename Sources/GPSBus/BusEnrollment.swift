import Localization
import DeskDaysCore
import DeskDaysConfig
import SystemBus

/// What `deskdays enroll gps` needs from the bus before it averages fixes:
/// `auto` resolved, gpsd actually there, and a ModemManager modem whose
/// GPS NMEA source is on. Turning that source on is the one change DeskDays
/// ever makes to a modem's set-up, and only here, where the user asked for
/// it; ModemManager asks polkit, and a refusal is reported in one sentence.
public enum BusEnrollment {
    /// A step that could not be taken, in one sentence naming the fix.
    public struct Refusal: Error, Sendable {
        public let sentence: String
    }

    /// The concrete source for `source` (`auto` resolved as the agent would), and why for `auto`.
    public static func resolve(_ source: GPSSettings.Source, serialDevice: String, address: String)
        -> (source: GPSSettings.Source, reason: String?) {
        guard source == .auto else { return (source, nil) }
        let choice = GPSSourceProbe.run(address: address, serialDevice: serialDevice).choice
        return (GPSSettings.Source(rawValue: choice.source.rawValue) ?? .serial, choice.reason)
    }

    /// Checks that gpsd is on the bus.
    public static func checkGPSD(address: String) throws(Refusal) {
        let probe = GPSSourceProbe.run(address: address, serialDevice: "")
        if let problem = probe.busProblem {
            throw Refusal(sentence: tr("cannot reach the system bus (\(problem)); gpsd's fixes come over it."))
        }
        guard probe.gpsdOnBus else {
            throw Refusal(sentence: tr("gpsd is not on the system bus: start it (`sudo systemctl start gpsd`), or use --source serial or modemmanager."))
        }
    }

    /// Finds ModemManager's first modem with a GPS and, when its NMEA source
    /// or location signals are off, asks ModemManager to turn them on
    /// (`note` is told first). Returns the modem's number.
    public static func prepareModem(address: String, note: (String) -> Void) throws(Refusal) -> String {
        guard BusSupport.isUnixOnly(address) else { throw Refusal(sentence: tr("the system bus address is not a unix socket; set DBUS_SYSTEM_BUS_ADDRESS to one.")) }
        let bus: OpaquePointer
        switch BusSupport.connect(address) {
        case .success(let connected): bus = connected
        case .failure(let failure): throw Refusal(sentence: tr("cannot reach the system bus (\(failure.reason)); ModemManager's fixes come over it."))
        }
        defer { BusSupport.close(bus, flush: true) }
        guard ModemManagerBus.isRunning(bus) else {
            throw Refusal(sentence: tr("ModemManager is not running: start it (`sudo systemctl start ModemManager`), or use --source serial or gpsd."))
        }
        let modems: [ModemManagerBus.Modem]
        switch ModemManagerBus.modems(bus) {
        case .success(let found): modems = found
        case .failure(let failure): throw Refusal(sentence: tr("ModemManager did not list its modems (\(failure.reason)); see `mmcli -L`."))
        }
        guard let modem = modems.first(where: \.isUsable) ?? modems.first(where: \.hasGPS) else {
            throw Refusal(sentence: tr("ModemManager has no modem that can give GPS positions (`mmcli -L` lists the modems; a WWAN modem's GNSS needs it enabled and its SIM unlocked)."))
        }
        if modem.isUsable { return modem.number }
        guard modem.capabilities & ModemManagerBus.gpsNMEA != 0 else {
            throw Refusal(sentence: tr("modem \(modem.number) gives GPS positions only without an accuracy estimate (no NMEA source), which DeskDays cannot trust; use --source serial or gpsd."))
        }
        note(tr("Turning on the GPS NMEA source and location signals of modem \(modem.number) (ModemManager asks polkit)…"))
        if let failure = ModemManagerBus.enableNMEA(bus, modem: modem) {
            throw Refusal(sentence: tr("ModemManager refused to turn on the GPS of modem \(modem.number) (\(failure.reason)); run this from your desktop session so polkit can ask you, or `sudo mmcli -m \(modem.number) --location-enable-gps-nmea --location-set-enable-signal`."))
        }
        return modem.number
    }
}
