import GPSBus
import NMEA
import Testing

/// `auto`'s rule and ModemManager's NMEA snapshots, without a bus (the bus
/// itself is driven in CLITests: AgentGPSDTests, AgentModemManagerTests).
struct SourceChoiceTests {
    static func modem(_ number: Int, capabilities: UInt32 = 6, enabled: UInt32 = 0, signals: Bool = false) -> ModemManagerBus.Modem {
        var modem = ModemManagerBus.Modem(path: "/org/freedesktop/ModemManager1/Modem/\(number)")
        modem.capabilities = capabilities
        modem.enabled = enabled
        modem.signalsLocation = signals
        return modem
    }

    @Test func autoPrefersGpsdThenAnEnabledModemThenTheDevice() {
        var probe = GPSSourceProbe()
        probe.gpsdOnBus = true
        probe.modemManagerRunning = true
        probe.modems = [Self.modem(0, enabled: 4, signals: true)]
        probe.serialDeviceExists = true
        #expect(probe.choice.source == .gpsd)
        probe.gpsdOnBus = false
        #expect(probe.choice.source == .modemmanager)
        #expect(probe.choice.reason == "ModemManager's modem 0 has its GPS enabled")
        probe.modems = [Self.modem(0)]
        #expect(probe.choice.source == .serial, "a modem with its GPS off does not beat a present receiver")
        probe.serialDeviceExists = false
        #expect(probe.choice.source == .modemmanager, "without a receiver, the modem that could: its log says how")
        probe.modems = [Self.modem(0, capabilities: 1)]  // cell location only
        #expect(probe.choice.source == .serial)
        #expect(probe.choice.reason == "gpsd is not on the system bus and no modem has its GPS enabled; waiting for the serial device")
        var nothing = GPSSourceProbe()
        nothing.busProblem = "No such file or directory"
        #expect(nothing.choice.reason == "no system bus (No such file or directory); waiting for the serial device")
    }

    @Test func aModemSaysWhatIsMissingWithTheCommand() {
        #expect(Self.modem(2, capabilities: 2).problem?.contains("no NMEA source") == true)
        #expect(Self.modem(2).problem?.contains("mmcli -m 2 --location-enable-gps-nmea --location-set-enable-signal") == true)
        #expect(Self.modem(2, enabled: 4).problem?.contains("mmcli -m 2 --location-set-enable-signal") == true)
        #expect(Self.modem(2, enabled: 4, signals: true).problem == nil)
        #expect(Self.modem(2, enabled: 4, signals: true).isUsable)
    }

    /// ModemManager keeps the latest sentence of each type: a snapshot can hold
    /// a newer RMC beside an older GGA. The fix is the newest cycle with a position and an HDOP.
    @Test func aModemManagerSnapshotGivesItsNewestUsableCycle() throws {
        let text = ["$GPRMC,080005.00,A,4851.5040,N,00217.6700,E,0.0,0.0,100326,,,A*59",
                    "$GPGGA,080004.00,4851.5040,N,00217.6700,E,1,09,0.9,35.0,M,47.0,M,,*59",
                    "$GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.6,0.9,1.3*3F"].joined(separator: "\r\n")
        let fix = try #require(ModemManagerBus.fix(fromNMEA: text))
        #expect(fix.time == UTCTime(hour: 8, minute: 0, second: 4))
        #expect(fix.hdop == 0.9)
        #expect(fix.hasPosition)
        #expect(abs(fix.latitude! - 48.8584) < 1e-4)
        #expect(ModemManagerBus.fix(fromNMEA: "") == nil)
        #expect(ModemManagerBus.fix(fromNMEA: "$GPRMC,080005.00,V,,,,,,,100326,,,N*76")?.hasPosition == false)
    }
}
