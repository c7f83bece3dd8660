#if canImport(Glibc)
import Localization
import Glibc
#endif
import DeskDaysConfig
import DeskDaysCore
import DeviceThread
import Foundation
import GPSAdapter
import Logging
import SystemBus

/// `[gps] source`: which source feeds the geofence, and for `auto` why.
public enum GPSSources {
    /// The fix source for `[gps]` (the system bus from `environment`).
    public static func fixSource(for settings: GPSSettings, environment: [String: String] = ProcessInfo.processInfo.environment,
                                 logger: Logger = Logger(label: "deskdays.gps")) -> any FixSource {
        let address = BusSupport.systemAddress(environment: environment)
        switch settings.source {
        case .serial: return NMEASerialReader(path: settings.device, baud: settings.baud, logger: logger)
        case .gpsd: return GPSDFixSource(address: address, logger: logger)
        case .modemmanager: return ModemManagerFixSource(address: address, logger: logger)
        case .auto: return AutoFixSource(settings: settings, address: address, logger: logger)
        }
    }
}

/// What the system bus says about the GPS services, and the source `auto`
/// takes from it (also what `deskdays doctor` reports). Read-only: names are
/// listed and properties read, nothing is started or changed.
public struct GPSSourceProbe: Sendable {
    public enum Choice: String, Sendable {
        case serial, gpsd, modemmanager
    }

    /// Why the bus could not be asked, or nil.
    public var busProblem: String?
    /// gpsd processes connected to the system bus.
    public var gpsdOnBus = false
    public var modemManagerRunning = false
    /// ModemManager's modems with a Location interface.
    public var modems: [ModemManagerBus.Modem] = []
    public var serialDeviceExists = false

    /// `auto`'s rule: gpsd when it is on the bus; else ModemManager when a
    /// modem has its GPS enabled; else the serial device when it exists;
    /// else ModemManager when a modem could give GPS (its log line says how
    /// to enable it); else the serial device, waited for.
    public var choice: (source: Choice, reason: String) {
        // The reason is shown by doctor and enroll, so it is in the user's language (whole sentences).
        if gpsdOnBus { return (.gpsd, tr("gpsd is on the system bus")) }
        let gps = ModemManagerBus.gpsRaw | ModemManagerBus.gpsNMEA
        if let modem = modems.first(where: { $0.enabled & gps != 0 }) {
            return (.modemmanager, tr("ModemManager's modem \(modem.number) has its GPS enabled"))
        }
        if serialDeviceExists { return (.serial, noServices(serialDeviceExists: true)) }
        if let modem = modems.first(where: \.hasGPS) {
            return (.modemmanager, tr("ModemManager's modem \(modem.number) can give GPS positions, and the serial device does not exist"))
        }
        return (.serial, noServices(serialDeviceExists: false))
    }

    /// Why neither service feeds the geofence, and what becomes of the serial device.
    private func noServices(serialDeviceExists exists: Bool) -> String {
        if let busProblem {
            return exists ? tr("no system bus (\(busProblem)); the serial device exists")
                : tr("no system bus (\(busProblem)); waiting for the serial device")
        }
        if modemManagerRunning {
            return exists ? tr("gpsd is not on the system bus and no modem has its GPS enabled; the serial device exists")
                : tr("gpsd is not on the system bus and no modem has its GPS enabled; waiting for the serial device")
        }
        return exists ? tr("neither gpsd nor ModemManager is on the system bus; the serial device exists")
            : tr("neither gpsd nor ModemManager is on the system bus; waiting for the serial device")
    }

    public init() {}

    /// Asks the bus at `address`; `proc` is where process names are read.
    public static func run(address: String, serialDevice: String, proc: String = "/proc") -> GPSSourceProbe {
        var probe = GPSSourceProbe()
        probe.serialDeviceExists = access(serialDevice, F_OK) == 0
        guard BusSupport.isUnixOnly(address) else {
            probe.busProblem = tr("the address is not a unix socket")

            return probe
        }
        let bus: OpaquePointer
        switch BusSupport.connect(address) {
        case .success(let connected): bus = connected
        case .failure(let failure):
            probe.busProblem = failure.reason
            return probe
        }
        defer { BusSupport.close(bus, flush: true) }
        probe.gpsdOnBus = gpsdConnections(bus, proc: proc) > 0
        probe.modemManagerRunning = ModemManagerBus.isRunning(bus)
        if probe.modemManagerRunning, case .success(let modems) = ModemManagerBus.modems(bus) {
            probe.modems = modems
        }
        return probe
    }

    /// How many connections on the bus belong to a process named `gpsd`
    /// (gpsd owns no bus name: its connection is found by its process).
    static func gpsdConnections(_ bus: OpaquePointer, proc: String) -> Int {
        let answer = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "ListNames")
        guard case .success(let reply) = answer else { return 0 }
        defer { BusSupport.release(reply) }
        let names = BusSupport.readStrings(reply) ?? []
        var count = 0
        for name in names where name.hasPrefix(":") {
            let pidAnswer = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                            interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID") {
                BusSupport.append($0, string: name)
            }
            guard case .success(let pidReply) = pidAnswer else { continue }
            let pid = BusSupport.read(pidReply, "u", as: UInt32.self, zero: 0)
            BusSupport.release(pidReply)
            guard let pid, let comm = try? String(contentsOfFile: "\(proc)/\(pid)/comm", encoding: .utf8) else { continue }
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == "gpsd" { count += 1 }
        }
        return count
    }

    /// Waits up to `seconds` for one gpsd `fix` signal with a position (for `doctor`); false when none came.
    public static func gpsdSendsFixes(address: String, seconds: Double) -> Bool {
        guard BusSupport.isUnixOnly(address), case .success(let bus) = BusSupport.connect(address) else { return false }
        defer { BusSupport.close(bus, flush: true) }
        final class Seen { var position = false }
        let seen = Seen()
        guard case .success(let subscription) = BusSupport.matchSignal(
            bus, sender: nil, path: GPSDFixSource.objectPath, interface: GPSDFixSource.interface, member: GPSDFixSource.member,
            synchronous: true, { message in if GPSDFixSource.fix(from: message)?.hasPosition == true { seen.position = true } }
        ) else { return false }
        defer { withExtendedLifetime(subscription) {} }
        var never: [Int32] = [-1, -1]
        guard pipe(&never) == 0 else { return false }
        defer { close(never[0]); close(never[1]) }
        let deadline = BusSupport.monotonicMicroseconds() + UInt64(seconds * 1_000_000)
        _ = BusSupport.dispatch(bus, stop: never[0], deadline: deadline) { seen.position }
        return seen.position
    }
}

/// `source = "auto"`: asks the bus each time the adapter starts (agent
/// start, a resume, a restart after a failure), logs the choice and why, and
/// reads the chosen source. When that is not gpsd but the bus is there, it
/// also listens (without wake-ups) for gpsd's fix signal: a gpsd started
/// later (a receiver plugged in, which Debian's gpsd takes on hot-plug) wins
/// at its first believed fix, and the other source is let go.
public struct AutoFixSource: FixSource {
    let settings: GPSSettings
    let address: String
    let logger: Logger

    public init(settings: GPSSettings, address: String, logger: Logger) {
        self.settings = settings
        self.address = address
        self.logger = logger
    }

    public func events() -> AsyncStream<GPSEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let settings = self.settings, address = self.address, logger = self.logger
        let task = Task {
            let probe = await DeviceStream.run(name: "deskdays-probe") { _ in
                GPSSourceProbe.run(address: address, serialDevice: settings.device)
            }
            guard !Task.isCancelled else { return continuation.finish() }
            let (choice, reason) = probe.choice
            logger.info("GPS source auto: \(choice.rawValue) (\(reason))")
            var chosen = settings
            chosen.source = GPSSettings.Source(rawValue: choice.rawValue) ?? .serial
            let primary = GPSSources.fixSource(for: chosen, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], logger: logger)
            guard choice != .gpsd, probe.busProblem == nil else {
                for await event in primary.events() { continuation.yield(event) }
                return continuation.finish()
            }
            let reading = Task {
                for await event in primary.events() { continuation.yield(event) }
            }
            var switched = false
            for await event in GPSDFixSource(address: address, logger: logger, announce: false).events() {
                if !switched, case .fix = event {
                    switched = true
                    reading.cancel()
                    logger.info("GPS source auto: gpsd joined the system bus; following it instead of \(choice.rawValue)")
                }
                if switched { continuation.yield(event) }
            }
            reading.cancel()
            await reading.value
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
