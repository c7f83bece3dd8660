import Localization
import DeskDaysCore
import TOMLKit

// GPS: its settings, how its section is read, and its entry of the
// configuration's method list (docs/design.md "Check-in methods").

/// `[gps]` and `[[gps.geofences]]`.
public struct GPSSettings: Sendable, Equatable {
    public struct Geofence: Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var radiusM: Double
        public var dwellS: Double
        /// Hysteresis: leaving needs this radius (default 1.5 × radius_m, at least radius_m + 50).
        public var leaveRadiusM: Double?
        public init(name: String, latitude: Double, longitude: Double, radiusM: Double = 150,
                    dwellS: Double = 120, leaveRadiusM: Double? = nil) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radiusM = radiusM
            self.dwellS = dwellS
            self.leaveRadiusM = leaveRadiusM
        }
    }
    /// Where fixes come from (docs/cli.md, hardware-notes.md). `auto`: gpsd's
    /// D-Bus `fix` signal when gpsd is on the system bus, else ModemManager
    /// when a modem can give GPS locations, else the serial `device`. With
    /// `gpsd` or `modemmanager`, `device` and `baud` are not used.
    public enum Source: String, Sendable, CaseIterable {
        case auto, serial, gpsd, modemmanager
    }
    public var enabled = false
    public var source: Source = .auto
    public var device = "/dev/ttyACM0"
    public var baud = 9600
    public var geofences: [Geofence] = []
    public init() {}
}

extension GPSSettings {
    /// The section as `config show` writes it (defaults filled in).
    var table: TOMLTable {
        MethodSection.table(["enabled": enabled, "source": source.rawValue, "device": device, "baud": baud], rules: "geofences", geofences.map {
            ["name": $0.name, "latitude": $0.latitude, "longitude": $0.longitude, "radius_m": $0.radiusM, "dwell_s": $0.dwellS,
             "leave_radius_m": $0.leaveRadiusM]
        })
    }
}

extension ConfigLoader {
    static func readGPS(_ reader: inout TableReader, _ table: TOMLTable, _ settings: inout GPSSettings) {
        reader.read(table, path: "gps") { reader, key, value, path in
            switch key {
            case "enabled": if let flag = reader.bool(value, path) { settings.enabled = flag }
            case "source": reader.choice(value, path) { settings.source = $0 }
            case "device": if let text = reader.string(value, path) { settings.device = text }
            case "baud":
                if let baud = reader.int(value, path, in: 1...Int.max, unit: tr("baud")) {
                    if [4800, 9600, 19200, 38400, 57600, 115200].contains(baud) {
                        settings.baud = baud
                    } else {
                        reader.problem(path, tr("baud \(baud) is not supported; use 4800, 9600, 19200, 38400, 57600 or 115200"))
                    }
                }
            case "geofences":
                reader.tables(value, path) { reader, table, path in
                    var name: String?, latitude: Double?, longitude: Double?
                    var fence = GPSSettings.Geofence(name: "", latitude: 0, longitude: 0)
                    reader.read(table, path: path) { reader, key, value, path in
                        switch key {
                        case "name":
                            name = reader.string(value, path)
                            if let text = name, let problem = RuleName.problem(text) { reader.problem(path, problem) }
                        case "latitude": latitude = reader.number(value, path, in: -90...90, unit: tr("degrees"))
                        case "longitude": longitude = reader.number(value, path, in: -180...180, unit: tr("degrees"))
                        case "radius_m": if let r = reader.number(value, path, in: 10...100_000, unit: tr("metres")) { fence.radiusM = r }
                        case "dwell_s": if let s = reader.number(value, path, in: 0...86_400, unit: tr("seconds")) { fence.dwellS = s }
                        case "leave_radius_m": fence.leaveRadiusM = reader.number(value, path, in: 10...200_000, unit: tr("metres"))
                        default: return false
                        }
                        return true
                    }
                    guard let name = reader.ruleName(name, path) else { return }
                    if let leave = fence.leaveRadiusM, leave < fence.radiusM {
                        reader.problem(path + ".leave_radius_m", tr("leave_radius_m must be at least radius_m (\(fence.radiusM)), or leaving would flap"))
                    }
                    guard let latitude, let longitude else {
                        if table["latitude"] == nil || table["longitude"] == nil {
                            reader.problem(path, tr("geofence \"\(name)\" needs latitude and longitude"))
                        }
                        return
                    }
                    fence.name = name
                    fence.latitude = latitude
                    fence.longitude = longitude
                    settings.geofences.append(fence)
                }
            default: return false
            }
            return true
        }
    }
}

extension MethodSection {
    public static let gps = MethodSection(source: .gps, read: { ConfigLoader.readGPS(&$0, $1, &$2.gps) },
                                          isEnabled: { $0.gps.enabled }, setEnabled: { $0.gps.enabled = $1 },
                                          hasRules: { !$0.gps.geofences.isEmpty },
                                          table: { $0.gps.table })
}
