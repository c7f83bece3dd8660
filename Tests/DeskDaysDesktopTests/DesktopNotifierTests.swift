@testable import DeskDaysDesktop
import Foundation
import SystemBus
import Testing

/// Which session bus the notifier would use, and what `deskdays doctor` is told, without a bus.
struct DesktopNotifierTests {
    static func notifier(_ environment: [String: String]) -> DesktopNotifier {
        DesktopNotifier(logger: .init(label: "test"), environment: environment)
    }

    @Test func theVariableComesFirstThenTheRuntimeFoldersSocket() {
        #expect(DesktopNotifier.sessionAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/a", "XDG_RUNTIME_DIR": "/run/user/7"])
                == "unix:path=/a")
        #expect(DesktopNotifier.sessionAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/run/user/7"])
                == "unix:path=/run/user/7/bus")
        // Characters outside the address syntax are %-escaped, and read back unescaped.
        let odd = DesktopNotifier.sessionAddress(environment: ["XDG_RUNTIME_DIR": "/tmp/a b,c;d"])
        #expect(odd == "unix:path=/tmp/a%20b%2Cc%3Bd/bus")
        #expect(BusSupport.socketPaths(odd ?? "") == ["/tmp/a b,c;d/bus"])
        #expect(DesktopNotifier.sessionAddress(environment: [:]) == nil)
        #expect(DesktopNotifier.sessionAddress(environment: ["XDG_RUNTIME_DIR": ""]) == nil)
    }

    @Test func socketPathsAreTheListsPathEntries() {
        #expect(BusSupport.socketPaths("unix:path=/a,guid=01;unix:abstract=/b;unix:guid=02,path=/c") == ["/a", "/c"])
        #expect(BusSupport.socketPaths("unix:abstract=/tmp/dbus-x").isEmpty)
    }

    @Test func doctorIsToldWhatIsMissing() throws {
        #expect(Self.notifier([:]).unavailableReason()?.contains("unset") == true)
        #expect(Self.notifier(["DBUS_SESSION_BUS_ADDRESS": "tcp:host=localhost,port=1"])
            .unavailableReason() == "the session bus address is not a unix socket")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-notifier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = Self.notifier(["XDG_RUNTIME_DIR": folder.path]).unavailableReason()
        #expect(missing == "no D-Bus session bus (\(folder.path)/bus does not exist)")
        // A plain file where the socket should be is not a bus either; abstract sockets cannot be checked and are tried.
        try Data().write(to: folder.appendingPathComponent("bus"))
        #expect(Self.notifier(["XDG_RUNTIME_DIR": folder.path]).unavailableReason() != nil)
        #expect(Self.notifier(["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/x"])
            .unavailableReason() == nil)
    }
}
