import DeskDaysConfig
import DeskDaysCore
import Foundation
import GPSAdapter
import GPSBus
import Logging
import NFCAdapter
import QRAdapter
import WiFiAdapter
import WiredAdapter

/// The one table of adapters (docs/design.md, habit 6, after gpsd's driver table): which
/// methods exist, and how each is built from its configuration section.
public enum AdapterRegistry {
    public struct Entry: Sendable {
        public var name: String
        public var adapter: any CheckInAdapter
    }

    /// The adapters the configuration enables (every method is in every build),
    /// each stamping its check-ins and timing its waits with the agent's one clock.
    public static func adapters(for configuration: Configuration, clock: AgentClock = .system) -> [Entry] {
        let now = clock.now
        var enabled: [Entry] = []
        if configuration.nfc.enabled {
            enabled.append(Entry(name: "nfc", adapter: NFCCheckInAdapter(
                settings: configuration.nfc, logger: Logger(label: "deskdays.nfc"), now: now)))
        }
        if configuration.gps.enabled {
            // `[gps] source`: a serial receiver, gpsd or ModemManager (or `auto`); the geofence is the same.
            enabled.append(Entry(name: "gps", adapter: GPSAdapter(settings: configuration.gps,
                                                                  fixes: GPSSources.fixSource(for: configuration.gps), now: now)))
        }
        if configuration.qr.enabled {
            enabled.append(Entry(name: "qr", adapter: QRCheckInAdapter(
                settings: configuration.qr, logger: Logger(label: "deskdays.qr"), now: now)))
        }
        if configuration.wifi.enabled {
            enabled.append(Entry(name: "wifi", adapter: WiFiCheckInAdapter(settings: configuration.wifi, clock: clock)))
        }
        if configuration.wired.enabled {
            enabled.append(Entry(name: "wired", adapter: WiredCheckInAdapter(settings: configuration.wired, clock: clock)))
        }
        return enabled
    }
}
