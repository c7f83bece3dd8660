// swift-tools-version: 6.1
import PackageDescription

/// DeskDays: office-attendance tracking on the user's own Linux machine.
///
/// Boundaries (docs/design.md): the core is pure (no I/O), adapters carry no
/// policy, the CLI carries no business logic. C libraries are reached only
/// through `systemLibrary` targets found by pkg-config, and only from the
/// adapter module that owns them.
let package = Package(
    name: "DeskDays",
    products: [
        .executable(name: "deskdays", targets: ["deskdays"]),
        .executable(name: "deskdays-cli", targets: ["deskdays-cli"]),
        .executable(name: "deskdays-hardware", targets: ["deskdays-hardware"]),
        .executable(name: "deskdays-app", targets: ["deskdays-app"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // MARK: - Messages in the user's language: gettext from glibc (libintl.h, setlocale)
        .systemLibrary(name: "CIntl"),
        .target(name: "Localization", dependencies: ["CIntl"]),

        // MARK: - The system calls DeskDays makes itself, and the one place EINTR is handled (no Foundation)
        .target(name: "Syscall", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // MARK: - Replacing a file whole, and whether a path may be read or trusted (beside Syscall)
        .target(name: "Files", dependencies: ["Syscall", "Localization", .product(name: "SystemPackage", package: "swift-system")]),

        // MARK: - Pure core: the policy's types and arithmetic, no file system (its words go through `tr`)
        .target(name: "DeskDaysCore", dependencies: ["Localization", "CNettle"]),
        // The one iCalendar reader and writer: libical 3 (libical-dev) parses, expands and writes
        // (the [calendar] vdir, holidays_ics, import and export of .ics). No pkgConfig: its
        // `--libs` adds libicalss (which loads libdb) and libicalvcal, which nothing here calls,
        // to every program's start; the module map links libical alone (headers in /usr/include).
        .systemLibrary(name: "CICal"),
        .target(name: "ICal", dependencies: ["CICal", "DeskDaysCore"]),
        .target(name: "DeskDaysConfig", dependencies: [
            "Files", "DeskDaysCore", "ICal",
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),

        // MARK: - Storage and the write path
        .target(name: "DeskDaysStore", dependencies: [
            "DeskDaysCore",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the hot path of a long merge (SQLiteStatement).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // MARK: - Sync: the folder (journal files), the phones' inbox and the relay of restored lines, over
        // the store's batch calls (`journal`, `merge`), which keep each line in the transaction of its effect
        .target(name: "DeskDaysSync", dependencies: ["Syscall", "Files", "Localization", "DeskDaysCore", "DeskDaysStore", "DeskDaysConfig"]),
        // The write path: what every check-in and record goes through; a syncing device's changes go through
        // a `Journal` (DeskDaysSync's `Synchronizer`), which the pipeline does not import
        .target(name: "DeskDaysPipeline", dependencies: [
            "Files", "DeskDaysCore", "DeskDaysStore",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - Export and import formats (CSV, JSON, iCalendar)
        .target(name: "DeskDaysExchange", dependencies: [
            "DeskDaysCore", "ICal",
            .product(name: "CSV", package: "CSV.swift"),
        ]),

        // MARK: - Starting programs: the one way, for the product and the tests (swift-subprocess)
        .target(name: "Spawn", dependencies: [
            "Syscall",
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // MARK: - Stopping threads that block in C (every adapter, the agent's bus threads)
        .target(name: "DeviceThread", dependencies: ["Syscall"]),

        // MARK: - sd-bus (libsystemd): the one place its calls are wrapped (BusSupport)
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "SystemBus", dependencies: ["CSystemd", "Localization", "Syscall"]),

        // MARK: - `deskdays doctor`'s frame: findings, sections, the machine as read (SystemView); each method's
        // checks are in its own module, so this links no hardware library
        .target(name: "DeskDaysDoctor", dependencies: ["Localization", "DeskDaysCore", "DeskDaysConfig"]),

        // MARK: - GPS: pure NMEA + geofence, the adapter and its serial source; gpsd and ModemManager over the system bus
        // GPSAdapter links no C library (deskdays-cli uses it for `enroll gps`); GPSBus adds the bus sources for the agent.
        .target(name: "NMEA", dependencies: ["DeskDaysCore"]),
        .target(name: "GPSAdapter", dependencies: [
            "DeviceThread", "Syscall",
            "NMEA", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "GPSBus", dependencies: [
            "DeviceThread", "SystemBus", "DeskDaysDoctor",
            "GPSAdapter", "NMEA", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - NFC: pure NDEF, PC/SC and libnfc
        .target(name: "NDEF", dependencies: ["Localization"]),
        .systemLibrary(name: "CPCSC", pkgConfig: "libpcsclite",
                       providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "CNFC", pkgConfig: "libnfc",
                       providers: [.apt(["libnfc-dev"])]),
        .target(name: "NFCAdapter", dependencies: [
            "DeviceThread", "DeskDaysDoctor",
            "NDEF", "CPCSC", "CNFC", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - QR: pure payload rules and frame logic, V4L2 camera, zbar, qrencode, PNG/JPEG
        .target(name: "QR"),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CV4L2", pkgConfig: "libv4l2", providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // libzxing 1.4 (C++) behind the names of zxing-cpp 2.x's C API (ZXingC.h): one .cpp, no C++ interop in Swift.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing"), .linkedLibrary("stdc++")]),
        .target(name: "QRAdapter", dependencies: [
            "DeviceThread", "Syscall", "DeskDaysDoctor",
            "QR", "CZXing", "CZBar", "CV4L2", "CQRencode", "CPNG", "CJPEG", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - Wi-Fi: pure nl80211 parser, libnl-genl adapter
        .target(name: "NL80211"),
        .systemLibrary(name: "CNetlink", pkgConfig: "libnl-genl-3.0",
                       providers: [.apt(["libnl-genl-3-dev", "libnl-3-dev"])]),
        // MARK: - Presence on a network, shared by Wi-Fi and wired: the netlink device thread and the flap-window rule
        .target(name: "NetworkPresence", dependencies: [
            "DeviceThread", "DeskDaysCore",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "WiFiAdapter", dependencies: [
            "DeviceThread", "NetworkPresence", "DeskDaysDoctor",
            "NL80211", "CNetlink", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - Wired: pure gateway logic, libnl-route-3 adapter (the default gateway's MAC over rtnetlink)
        .target(name: "Wired", dependencies: ["NL80211", "DeskDaysConfig"]),
        .systemLibrary(name: "CNetlinkRoute", pkgConfig: "libnl-route-3.0",
                       providers: [.apt(["libnl-route-3-dev", "libnl-3-dev"])]),
        .target(name: "WiredAdapter", dependencies: [
            "DeviceThread", "NetworkPresence", "DeskDaysDoctor",
            "Wired", "NL80211", "CNetlinkRoute", "DeskDaysCore", "DeskDaysConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - The control socket: the one versioned protocol (messages, codec, client), paths, trust and AF_UNIX calls,
        // without Foundation (the launcher links only this); then the requests in DeskDaysCore's types
        .target(name: "AgentSocket", dependencies: ["Localization", "Syscall"]),
        .target(name: "DeskDaysControl", dependencies: ["AgentSocket", "DeskDaysCore"]),

        // MARK: - `deskdays doctor`: what each method's hardware and the system look like (read-only checks)


        // MARK: - The desktop: reminders (notifications), the D-Bus interface and the tray icon, through SystemBus alone
        .target(name: "DeskDaysDesktop", dependencies: [
            "DeviceThread", "Spawn", "AgentSocket", "SystemBus", "DeskDaysCore", "DeskDaysReports", "DeskDaysControl",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - The agent: adapters → pipeline, supervised
        // sd-bus through SystemBus for logind's PrepareForSleep, notifications and the GPS bus sources.
        .target(name: "DeskDaysAgent", dependencies: [
            "Files", "DeviceThread", "Spawn",
            "AgentSocket", "DeskDaysControl", "DeskDaysCore", "DeskDaysConfig", "DeskDaysStore", "DeskDaysSync", "DeskDaysPipeline", "DeskDaysAnswer",
            "DeskDaysReports", "GPSBus",
            "SystemBus", "DeskDaysCalendar", "DeskDaysDesktop",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // MARK: - Reports: calendar, charts, streaks, HTML (pure rendering)
        // Nettle's SHA-256 (nettle-dev): the digest of `deskdays evidence`'s day table.
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        .target(name: "DeskDaysReports", dependencies: ["DeskDaysCore"]),

        // MARK: - What status and report print, for the CLI and the agent alike
        .target(name: "DeskDaysAnswer", dependencies: ["DeskDaysCore", "DeskDaysStore", "DeskDaysReports"]),

        // MARK: - The [calendar] vdir (read through ICal); the CLI and the agent read it alike
        .target(name: "DeskDaysCalendar", dependencies: ["Files", "ICal", "DeskDaysCore", "DeskDaysConfig"]),

        // MARK: - The command line
        // Three executables (docs/cli.md, "Executables"): `deskdays`, a
        // launcher that only asks the agent; `deskdays-cli`, the command tree,
        // which links no hardware library; `deskdays-hardware`, the commands
        // that need one (agent, doctor, enroll gps|nfc|wifi|qr, qr), with their own tree.
        // What every command tree shares (the CLI's and the methods' enrol commands): the global
        // options, a failure's one sentence, writing a learnt rule, the configuration's warnings
        .target(name: "CommandSupport", dependencies: [
            "AgentSocket", "Syscall", "DeskDaysCore", "DeskDaysConfig", "DeskDaysReports",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "DeskDaysCLI", dependencies: [
            "Files", "CommandSupport", "DeskDaysCore", "DeskDaysConfig", "DeskDaysStore", "DeskDaysSync", "DeskDaysPipeline", "DeskDaysExchange",
            "AgentSocket", "DeskDaysControl", "DeskDaysReports", "DeskDaysAnswer", "NMEA", "Spawn",
            "DeskDaysCalendar",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `deskdays`: a launcher without Foundation that prints the agent's
        // current answer (status json|waybar|i3blocks, report --json) and
        // hands everything else to `deskdays-cli`, the command tree.
        // Linked fully static (no dynamic loader: it starts in about half a
        // millisecond, bench/core.sh), which only a program without
        // Foundation can be.
        .executableTarget(name: "deskdays", dependencies: ["AgentSocket", "Localization", "Syscall"],
                          linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .executableTarget(name: "deskdays-cli", dependencies: ["DeskDaysCLI"]),
        // MARK: - The check-in methods' one table (after gpsd's driver table): each method's section,
        // and, from its module, its adapter and doctor checks; the enrolment commands; and `setup`
        .target(name: "CheckInMethods", dependencies: [
            "Files", "CommandSupport", "DeskDaysCore", "DeskDaysConfig", "DeskDaysDoctor", "DeskDaysReports", "DeskDaysSync",
            "NFCAdapter", "WiFiAdapter", "NL80211", "Wired", "WiredAdapter", "QR", "QRAdapter", "GPSAdapter", "GPSBus",
            "SystemBus", "Spawn",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "deskdays-hardware", dependencies: [
            "CheckInMethods", "CommandSupport",
            "AgentSocket", "DeskDaysCLI", "DeskDaysControl", "DeskDaysCore", "DeskDaysConfig", "DeskDaysStore", "DeskDaysAgent",
            "DeskDaysDoctor", "DeskDaysDesktop", "NFCAdapter", "WiredAdapter", "QR", "QRAdapter", "GPSBus", "SystemBus",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - The app's window (io.github.deskdays.DeskDays): GTK 4 and libadwaita 1.2 in this module alone,
        // a client of the agent's D-Bus interface through GIO; layouts in .ui files compiled by `make ui`
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        .target(name: "DeskDaysWindowResources", dependencies: ["CAdwaita"]),
        .target(name: "DeskDaysWindow", dependencies: [
            "CAdwaita", "DeskDaysWindowResources", "Localization", "DeskDaysCore", "DeskDaysReports",
        ], exclude: ["ui", "deskdays.gresource.xml"]),
        .executableTarget(name: "deskdays-app", dependencies: ["DeskDaysWindow"]),

        // MARK: - Tests
        // Helpers every test target may use (waiting for child processes reliably).
        .target(name: "TestSupport", dependencies: ["Spawn", .product(name: "Logging", package: "swift-log")], path: "Tests/Support"),
        .testTarget(name: "SyscallTests", dependencies: ["Syscall", "TestSupport", "Spawn"]),
        .testTarget(name: "DeskDaysCoreTests", dependencies: [
            "DeskDaysCore",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "ICalTests", dependencies: ["ICal", "DeskDaysCore"]),
        .testTarget(name: "DeskDaysConfigTests", dependencies: ["DeskDaysConfig"]),
        .testTarget(name: "SpawnTests", dependencies: ["Spawn"]),
        .testTarget(name: "DeskDaysExchangeTests", dependencies: ["DeskDaysExchange"]),
        .testTarget(name: "DeskDaysStoreTests", dependencies: [
            "DeskDaysStore", "DeskDaysSync",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DeskDaysPipelineTests", dependencies: ["DeskDaysPipeline", "DeskDaysStore", "DeskDaysSync"]),
        .testTarget(name: "NMEATests", dependencies: ["NMEA"]),
        .testTarget(name: "GPSAdapterTests", dependencies: [
            "TestSupport", "Spawn", "GPSAdapter", "GPSBus", "NMEA", "SystemBus",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF"]),
        .testTarget(name: "NFCAdapterTests", dependencies: [
            "TestSupport", "Spawn",
            "NFCAdapter", "NDEF", "DeskDaysCore", "DeskDaysConfig", "DeskDaysStore", "DeskDaysPipeline",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "QRTests", dependencies: ["QR"]),
        .testTarget(name: "QRAdapterTests", dependencies: ["TestSupport", "Spawn", "QRAdapter", "QR", "CJPEG", "DeskDaysCore", "DeskDaysConfig"]),
        .testTarget(name: "DeskDaysReportsTests", dependencies: ["TestSupport", "Spawn", "DeskDaysReports", "DeskDaysCore"],
                    exclude: ["Golden", "regenerate-golden.sh"]),
        .testTarget(name: "NL80211Tests", dependencies: ["NL80211"]),
        .testTarget(name: "WiFiAdapterTests", dependencies: ["TestSupport", "Spawn", "WiFiAdapter", "NL80211", "DeskDaysCore", "DeskDaysConfig"]),
        .testTarget(name: "WiredTests", dependencies: ["Wired", "NL80211", "DeskDaysCore", "DeskDaysConfig"]),
        .testTarget(name: "DeskDaysDoctorTests", dependencies: ["CheckInMethods", "DeskDaysDoctor", "DeskDaysConfig", "GPSBus", "NFCAdapter", "SystemBus", "Wired", "NL80211"]),
        .testTarget(name: "DeskDaysDesktopTests", dependencies: ["DeskDaysDesktop", "SystemBus"]),
        .testTarget(name: "DeskDaysAgentTests", dependencies: ["TestSupport", "Spawn", "AgentSocket", "DeskDaysAgent", "DeskDaysAnswer", "DeskDaysStore", "DeskDaysReports", "Wired", "NL80211", "DeskDaysControl", "DeskDaysCore", "DeskDaysConfig", "GPSBus", "SystemBus"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "Spawn", "DeskDaysCore"], exclude: ["Golden"]),
    ]
)
