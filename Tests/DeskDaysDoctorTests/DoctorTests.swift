import DeskDaysConfig
import Foundation
import GPSBus
import Testing
@testable import DeskDaysDoctor

/// `Doctor` against a scratch /proc, /sys and /run: each condition it
/// names is produced by the files that mean it on a real machine.
struct DoctorTests {
    /// A fake system tree, removed when the test ends.
    final class FakeSystem {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        var view: SystemView { SystemView(proc: root + "/proc", sys: root + "/sys", run: root + "/run") }

        init() throws {
            for folder in ["proc", "sys/module", "sys/bus/usb/devices", "sys/class/net", "run"] {
                try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ path: String, _ text: String) throws {
            let full = "\(root)/\(path)"
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }

        func process(_ pid: Int, _ name: String, holding paths: [String] = []) throws {
            try write("proc/\(pid)/comm", name + "\n")
            try FileManager.default.createDirectory(atPath: "\(root)/proc/\(pid)/fd", withIntermediateDirectories: true)
            for (index, path) in paths.enumerated() {
                try FileManager.default.createSymbolicLink(atPath: "\(root)/proc/\(pid)/fd/\(index + 3)", withDestinationPath: path)
            }
        }

        func usb(_ name: String, vendor: String, product: String) throws {
            try write("sys/bus/usb/devices/\(name)/idVendor", vendor + "\n")
            try write("sys/bus/usb/devices/\(name)/idProduct", product + "\n")
        }

        /// Interface 0 of USB device `name` bound to `driver`, as sysfs shows it.
        func bind(_ name: String, to driver: String) throws {
            let interface = "\(root)/sys/bus/usb/devices/\(name):1.0"
            try FileManager.default.createDirectory(atPath: interface, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: interface + "/driver",
                                                       withDestinationPath: "../../../../bus/usb/drivers/\(driver)")
        }
    }

    static func nfcConfig(backend: NFCSettings.Backend = .auto) -> Configuration {
        var configuration = Configuration()
        configuration.nfc.enabled = true
        configuration.nfc.backend = backend
        configuration.nfc.tags = [.init(name: "desk", uid: "04A2246A2F6E80")]
        return configuration
    }

    static func section(_ sections: [Doctor.Section], _ name: String) -> Doctor.Section {
        sections.first { $0.name == name }!
    }

    @Test func pn533ModuleHoldingAnACR122UIsAProblemWithTheFix() throws {
        let fake = try FakeSystem()
        try fake.usb("1-1", vendor: "072f", product: "2200")
        try fake.write("proc/modules", "pn533_usb 20480 0 - Live 0x0\npn533 45056 1 pn533_usb, Live 0x0\n")
        try fake.process(812, "pcscd")
        let sections = Diagnosis(system: fake.view).diagnose(Self.nfcConfig())
        let nfc = Self.section(sections, "nfc")
        #expect(nfc.findings.contains(Doctor.Finding(.ok, "reader found on USB: ACS ACR122U")))
        let module = try #require(nfc.findings.first { $0.text.contains("pn533_usb") })
        // Loaded but not bound to the reader (pcscd got it first): a warning for the next replug.
        #expect(module.level == .warning, "\(module)")
        #expect(module.fix?.contains("blacklist pn533_usb") == true)

        // Bound to the reader: nothing else can open it.
        try fake.bind("1-1", to: "pn533_usb")
        let bound = Self.section(Diagnosis(system: fake.view).diagnose(Self.nfcConfig()), "nfc")
        let held = try #require(bound.findings.first { $0.text.contains("pn533_usb") })
        #expect(held.level == .problem)
        #expect(held.text == "the kernel driver pn533_usb holds the ACS ACR122U: pcscd and libnfc cannot open it")
        #expect(held.fix?.contains("blacklist pn533_usb") == true)
        #expect(Doctor.failed([bound]))
    }

    /// The same reader bound to pcscd's usbfs access (driver `usbfs`) is fine.
    @Test func aReaderBoundToAnotherDriverIsNotHeldByPN533() throws {
        let fake = try FakeSystem()
        try fake.usb("1-1", vendor: "072f", product: "2200")
        try fake.bind("1-1", to: "usbfs")
        try fake.write("run/pcscd/pcscd.comm", "")
        let nfc = Self.section(Diagnosis(system: fake.view, pcscReaders: { .readers(["ACS ACR122U PICC Interface 00 00"]) })
            .diagnose(Self.nfcConfig(backend: .pcsc)), "nfc")
        #expect(!nfc.findings.contains { $0.text.contains("pn533") }, "\(nfc)")
        #expect(!Doctor.failed([nfc]))
    }

    /// pcscd built with polkit closes a refused client's connection at once.
    @Test func pcscdRefusingTheSessionIsNamedWithThePolkitFix() throws {
        let fake = try FakeSystem()
        try fake.process(812, "pcscd")
        let nfc = Self.section(Diagnosis(system: fake.view, pcscReaders: { .refused }).diagnose(Self.nfcConfig(backend: .pcsc)), "nfc")
        let finding = try #require(nfc.findings.first { $0.text.hasPrefix("pcscd refuses this session") })
        #expect(finding.level == .problem)
        #expect(finding.fix?.contains("polkit") == true && finding.fix?.contains("access_pcsc") == true)
    }

    @Test func aHealthyPCSCSetupPasses() throws {
        let fake = try FakeSystem()
        try fake.usb("1-2", vendor: "072f", product: "223b")
        try fake.write("run/pcscd/pcscd.comm", "")
        let sections = Diagnosis(system: fake.view, pcscReaders: { .readers(["ACS ACR1252 1S CL Reader 00 00"]) })
            .diagnose(Self.nfcConfig(backend: .pcsc))
        #expect(!Doctor.failed(sections), "\(sections)")
        #expect(Self.section(sections, "nfc").findings.contains(Doctor.Finding(.ok, "pcscd sees a reader: ACS ACR1252 1S CL Reader 00 00")))
    }

    @Test func anOfficeNetworkWithoutABSSIDPinIsAWarning() throws {
        let fake = try FakeSystem()
        var configuration = Configuration()
        configuration.wifi.enabled = true
        configuration.wifi.networks = [.init(name: "hq", ssid: "Corp"), .init(name: "lab", ssid: "Lab", bssids: ["AA:BB:CC:DD:EE:FF"])]
        let wifi = Self.section(Diagnosis(system: fake.view).diagnose(configuration), "wifi")
        let pins = wifi.findings.filter { $0.text.contains("has no BSSID pin") }
        #expect(pins.count == 1 && pins[0].level == .warning && pins[0].text.contains("\"hq\""))
        #expect(pins[0].fix?.contains("enroll wifi --pin --name hq") == true)
    }

    @Test func samSlotsAndTheConfiguredReaderAreShown() throws {
        let fake = try FakeSystem()
        try fake.process(812, "pcscd")
        let picc = "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00"
        let sam = "ACS ACR1252 Dual Reader [ACR1252 Dual Reader SAM] 01 00"
        let sections = Diagnosis(system: fake.view, pcscReaders: { .readers([picc, sam]) }).diagnose(Self.nfcConfig())
        #expect(Self.section(sections, "nfc").findings.contains { $0.level == .ok && $0.text.contains("\(sam) (SAM slot, not read)") })
        var narrowed = Self.nfcConfig()
        narrowed.nfc.reader = "Omnikey"
        let wrong = Diagnosis(system: fake.view, pcscReaders: { .readers([picc, sam]) }).diagnose(narrowed)
        let finding = try #require(Self.section(wrong, "nfc").findings.first { $0.text.hasPrefix("pcscd sees no reader DeskDays reads") })
        #expect(finding.level == .problem && finding.fix?.contains("\"Omnikey\"") == true)
    }

    /// The probe: no reader, pcscd stopped. Nothing can arrive, so doctor fails.
    @Test func pcscdStoppedIsAProblemWhenNothingElseCanReadTags() throws {
        let fake = try FakeSystem()
        let required = Diagnosis(system: fake.view).diagnose(Self.nfcConfig(backend: .pcsc))
        #expect(Self.section(required, "nfc").findings.contains { $0.level == .problem && $0.text == "pcscd is not running" })
        let auto = Diagnosis(system: fake.view).diagnose(Self.nfcConfig(backend: .auto))
        #expect(Self.section(auto, "nfc").findings.contains { $0.level == .problem && $0.text == "pcscd is not running" })
        #expect(Doctor.failed(auto))
        // With a libnfc device named, PC/SC is only one of two ways.
        var withDevice = Self.nfcConfig(backend: .auto)
        withDevice.nfc.connstring = "pn532_uart:/dev/null"
        let either = Diagnosis(system: fake.view).diagnose(withDevice)
        #expect(Self.section(either, "nfc").findings.contains { $0.level == .warning && $0.text == "pcscd is not running" })
    }

    @Test func aRunningPcscdWithoutAReaderFails() throws {
        let fake = try FakeSystem()
        try fake.process(812, "pcscd")
        let sections = Diagnosis(system: fake.view, pcscReaders: { .readers([]) }).diagnose(Self.nfcConfig())
        let finding = try #require(Self.section(sections, "nfc").findings.first { $0.text == "pcscd is running but sees no reader" })
        #expect(finding.level == .problem && finding.fix?.contains("pcsc_scan") == true)
        #expect(Doctor.failed(sections))
        let silent = Diagnosis(system: fake.view, pcscReaders: { .unreachable }).diagnose(Self.nfcConfig())
        #expect(Self.section(silent, "nfc").findings.contains { $0.level == .problem && $0.text == "pcscd does not answer" })
    }

    @Test func gpsDeviceMissingNotADeviceAndModemManager() throws {
        let fake = try FakeSystem()
        try fake.process(400, "ModemManager")
        var configuration = Configuration()
        configuration.gps.enabled = true
        configuration.gps.geofences = [.init(name: "hq", latitude: 51.5, longitude: -0.12)]
        configuration.gps.device = fake.root + "/nothing-here"
        var gps = Self.section(Diagnosis(system: fake.view).diagnose(configuration), "gps")
        #expect(gps.findings.contains { $0.level == .problem && $0.text.contains("does not exist") })
        #expect(gps.findings.contains { $0.level == .warning && $0.text.hasPrefix("ModemManager is running") })

        configuration.gps.device = fake.root + "/proc/400/comm"
        gps = Self.section(Diagnosis(system: fake.view).diagnose(configuration), "gps")
        #expect(gps.findings.contains { $0.level == .problem && $0.text.contains("is not a character device") })
    }

    @Test func aDeviceHeldByAnotherProgramIsNamed() throws {
        let fake = try FakeSystem()
        try fake.process(321, "gpsd", holding: ["/dev/null"])
        var configuration = Configuration()
        configuration.gps.enabled = true
        configuration.gps.geofences = [.init(name: "hq", latitude: 51.5, longitude: -0.12)]
        configuration.gps.device = "/dev/null"
        let sections = Diagnosis(system: fake.view).diagnose(configuration)
        let gps = Self.section(sections, "gps")
        #expect(gps.findings.contains(Doctor.Finding(.ok, "/dev/null is present and readable")))
        #expect(gps.findings.contains { $0.level == .warning && $0.text.contains("gpsd (pid 321)") })
        #expect(!Doctor.failed(sections), "a holder is a warning: it may be intended")
    }

    static func gpsConfig(_ source: GPSSettings.Source, device: String = "/dev/deskdays-no-such-gps") -> Configuration {
        var configuration = Configuration()
        configuration.gps.enabled = true
        configuration.gps.source = source
        configuration.gps.device = device
        configuration.gps.geofences = [.init(name: "hq", latitude: 51.5, longitude: -0.12)]
        return configuration
    }

    @Test func autoSaysWhichSourceItChoseAndWhyAndGpsdWithoutAFixIsAWarning() throws {
        let fake = try FakeSystem()
        var probe = GPSSourceProbe()
        probe.gpsdOnBus = true
        let sections = Diagnosis(system: fake.view, gpsProbe: { [probe] _ in probe }, gpsdSendsFixes: { false }).diagnose(Self.gpsConfig(.auto))
        let gps = Self.section(sections, "gps")
        #expect(gps.summary == "enabled (source gpsd, by auto)")
        #expect(gps.findings.contains(Doctor.Finding(.ok, "source auto chose gpsd: gpsd is on the system bus")))
        #expect(gps.findings.contains { $0.level == .warning && $0.text == "gpsd is on the system bus but sent no fix with a position in 2 s" })
        #expect(!gps.findings.contains { $0.text.contains("does not exist") }, "the serial device is not needed: \(gps.findings)")
        #expect(!Doctor.failed(sections))
        let fixing = Self.section(Diagnosis(system: fake.view, gpsProbe: { [probe] _ in probe }, gpsdSendsFixes: { true }).diagnose(Self.gpsConfig(.gpsd)), "gps")
        #expect(fixing.findings.contains(Doctor.Finding(.ok, "gpsd is on the system bus and sends fixes")))
        let absent = Diagnosis(system: fake.view, gpsProbe: { _ in GPSSourceProbe() }).diagnose(Self.gpsConfig(.gpsd))
        #expect(Self.section(absent, "gps").findings.contains { $0.level == .problem && $0.text == "gpsd is not on the system bus" })
    }

    @Test func modemManagerWithoutALocationCapableModem() throws {
        let fake = try FakeSystem()
        var probe = GPSSourceProbe()
        probe.modemManagerRunning = true
        var sections = Diagnosis(system: fake.view, gpsProbe: { [probe] _ in probe }).diagnose(Self.gpsConfig(.modemmanager))
        #expect(Self.section(sections, "gps").findings.contains { $0.level == .problem && $0.text == "ModemManager is running but has no modem that can give GPS positions" })
        #expect(Doctor.failed(sections))
        // With auto it is only a note, and the serial device is what counts.
        sections = Diagnosis(system: fake.view, gpsProbe: { [probe] _ in probe }).diagnose(Self.gpsConfig(.auto))
        let gps = Self.section(sections, "gps")
        #expect(gps.findings.contains(Doctor.Finding(.note, "ModemManager is running with no location-capable modem")))
        #expect(gps.findings.contains { $0.level == .problem && $0.text.contains("does not exist") })
        // A modem whose NMEA source is off: the problem names the command that turns it on.
        var modem = ModemManagerBus.Modem(path: "/org/freedesktop/ModemManager1/Modem/3")
        modem.capabilities = ModemManagerBus.gpsRaw | ModemManagerBus.gpsNMEA
        probe.modems = [modem]
        let off = Self.section(Diagnosis(system: fake.view, gpsProbe: { [probe] _ in probe }).diagnose(Self.gpsConfig(.auto)), "gps")
        #expect(off.findings.contains(Doctor.Finding(.ok, "source auto chose modemmanager: ModemManager's modem 3 can give GPS positions, and the serial device does not exist")))
        #expect(off.findings.contains { $0.level == .problem && $0.text.contains("mmcli -m 3 --location-enable-gps-nmea") })
    }

    @Test func aSerialDeviceHeldByGpsdPointsAtTheGpsdSource() throws {
        let fake = try FakeSystem()
        try fake.process(321, "gpsd", holding: ["/dev/null"])
        try fake.process(322, "ModemManager", holding: ["/dev/zero"])
        let held = Self.section(Diagnosis(system: fake.view, gpsProbe: { _ in GPSSourceProbe() }).diagnose(Self.gpsConfig(.serial, device: "/dev/null")), "gps")
        #expect(held.findings.contains { $0.level == .warning && $0.text.contains("gpsd owns the receiver") && $0.fix?.contains("source = \"gpsd\"") == true })
        let taken = Self.section(Diagnosis(system: fake.view).diagnose(Self.gpsConfig(.serial, device: "/dev/zero")), "gps")
        #expect(taken.findings.contains { $0.level == .warning && $0.text.contains("ModemManager took the port") && $0.fix?.contains("ID_MM_DEVICE_IGNORE") == true })
    }

    @Test func wifiWithoutAWirelessInterfaceAndQRWithoutACamera() throws {
        let fake = try FakeSystem()
        var configuration = Configuration()
        configuration.wifi.enabled = true
        configuration.wifi.networks = [.init(name: "corp", ssid: "Corp", bssids: ["AA:BB:CC:DD:EE:FF"])]
        configuration.qr.enabled = true
        configuration.qr.payloads = ["deskdays:office:hq"]
        configuration.qr.device = fake.root + "/video9"
        var sections = Diagnosis(system: fake.view).diagnose(configuration)
        #expect(Self.section(sections, "wifi").findings.contains { $0.level == .problem && $0.text.contains("no wireless interface") })
        #expect(Self.section(sections, "qr").findings.contains { $0.level == .problem && $0.text.contains("does not exist") })
        // The decoders this build links, ZXing first, zbar second, with their versions.
        let decoders = try #require(Self.section(sections, "qr").findings.first?.text)
        #expect(decoders.hasPrefix("QR decoders in this build: ZXing 1.") && decoders.contains(", then zbar 0."), "\(decoders)")
        try fake.write("sys/class/net/wlp2s0/wireless/.keep", "")
        sections = Diagnosis(system: fake.view).diagnose(configuration)
        #expect(Self.section(sections, "wifi").findings == [Doctor.Finding(.ok, "wireless interface: wlp2s0")])
    }

    @Test func nothingEnabledIsANoteNotAFailure() throws {
        let fake = try FakeSystem()
        let sections = Diagnosis(system: fake.view).diagnose(Configuration())
        #expect(!Doctor.failed(sections))
        #expect(Self.section(sections, "methods").findings.first?.level == .note)
    }
}
