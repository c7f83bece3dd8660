import DeskDaysConfig
import DeskDaysCore
import GPSAdapter
import Logging
import NFCAdapter
import QRAdapter
import WiFiAdapter

/// The one table of adapters (STYLE.md 6, after gpsd's driver table): which
/// methods exist, and how each is built from its configuration section.
public enum AdapterRegistry {
    public struct Entry: Sendable {
        public var name: String
        public var adapter: any CheckInAdapter
    }

    /// The adapters the configuration enables (every method is in every build).
    public static func adapters(for configuration: Configuration) -> [Entry] {
        var enabled: [Entry] = []
        if configuration.nfc.enabled {
            enabled.append(Entry(name: "nfc", adapter: NFCCheckInAdapter(
                settings: configuration.nfc, logger: Logger(label: "deskdays.nfc"))))
        }
        if configuration.gps.enabled {
            enabled.append(Entry(name: "gps", adapter: GPSAdapter(settings: configuration.gps)))
        }
        if configuration.qr.enabled {
            enabled.append(Entry(name: "qr", adapter: QRCheckInAdapter(
                settings: configuration.qr, logger: Logger(label: "deskdays.qr"))))
        }
        if configuration.wifi.enabled {
            enabled.append(Entry(name: "wifi", adapter: WiFiCheckInAdapter(settings: configuration.wifi)))
        }
        return enabled
    }
}
