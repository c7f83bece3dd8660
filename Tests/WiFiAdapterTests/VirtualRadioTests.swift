import Foundation
import Spawn
import TestSupport
import Testing

/// End to end in one boot of the test VM (Tests/Harness/vm, TCG): the real
/// agent binary against mac80211_hwsim radios, hostapd access points and
/// wpa_supplicant (Tests/Harness/wifi/inside-vm.sh runs the scenarios).
@Suite(.tags(.hardwareBench), .serialized) struct VirtualRadioTests {
    /// The built `deskdays` binary (`make test` sets DESKDAYS_BIN).
    static let binary = ProcessInfo.processInfo.environment["DESKDAYS_BIN"]
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Harness/wifi/run.sh").path

    /// One VM run shared by every test below, started by the first to ask: scenario → (stored, arrivals).
    static let vm = Task { await VMRun.start() }
    static var run: Result<VMRun, VMFailure> { get async { await vm.value } }

    /// Why these tests cannot run here (printed once), or nil.
    static let missing = Task<String?, Never> {
        guard binary != nil else {
            print("Wi-Fi VM tests skipped: DESKDAYS_BIN is not set (run them through `make test`)")
            return "DESKDAYS_BIN is not set"
        }
        let check = await VMRun.shell([harness, "check"])
        guard check.status == 0 else {
            print("Wi-Fi VM tests skipped: \(check.errors)")
            return check.errors
        }
        return nil
    }
    static let enabled = ConditionTrait.enabled(
        "needs DESKDAYS_BIN and qemu-system-x86, linux-image-amd64, busybox-static, cpio, kmod, hostapd, wpasupplicant, iw, wireless-regdb, sqlite3, strace, socat (reason printed above)"
    ) { await missing.value == nil }

    @Test("started before any Wi-Fi exists: unavailable once, then reads the link when the driver loads", enabled)
    func wifiAppearsLater() async throws {
        let late = try #require(try await Self.run.get().results["late"])
        #expect(late.count == 2)
        #expect(late.first == 1)
        #expect((late.last ?? 0) >= 1)
    }

    @Test("connect to the configured SSID → one check-in", enabled)
    func connect() async throws {
        let run = try await Self.run.get()
        #expect(run.results["connect"] == [1, 1])
    }

    @Test("a network no rule names → none", enabled)
    func otherSSID() async throws {
        #expect(try await Self.run.get().results["other"] == [0, 0])
    }

    @Test("a BSSID pin that does not match → none", enabled)
    func pinMismatch() async throws {
        #expect(try await Self.run.get().results["pin"] == [0, 0])
    }

    @Test("disconnect and reconnect → still one stored, one arrival", enabled)
    func flap() async throws {
        #expect(try await Self.run.get().results["flap"] == [1, 1])
    }

    @Test("disconnecting is a departure, the return after a flap an arrival: the latest sign follows the link", enabled)
    func departures() async throws {
        let run = try await Self.run.get()
        // After the flap the latest sign is the return; after a disconnect, a departure.
        // The script's clock moves were answered (a move the agent had not made yet would misplace the departure).
        #expect(run.results["advance-failed"] == nil, "\(run.results)")
        #expect(run.results["leave"] == [1, 1, 1])
        // explain names the departure; days --json has first_seen and last_seen.
        #expect(run.results["leave-seen"] == [1, 1, 1])
        // Stopping the agent while connected records the departure.
        #expect(run.results["stop-leaves"] == [1, 1])
    }

    @Test("agent started while already connected → one check-in", enabled)
    func alreadyConnected() async throws {
        #expect(try await Self.run.get().results["already"] == [1, 1])
    }

    @Test("enroll wifi --pin writes the current network and access point", enabled)
    func enroll() async throws {
        let run = try await Self.run.get()
        #expect(run.results["enroll-status"] == [0])
        #expect(run.enrolled.contains("[[wifi.networks]]\nname = \"desk\"\nssid = \"Office-5G\"\nbssids = [\"02:00:00:00:00:00\"]\n"),
                "\(run.enrolled)")
    }

    @Test("the radios vanish under a running agent: a manual check-in is answered meanwhile, the arrival after their return is stored",
          enabled)
    func vanishAndReturn() async throws {
        let run = try await Self.run.get()
        // wlan1 gone, agent alive, the socket said ok, the manual record committed.
        #expect(run.results["vanish-gone"] == [1, 1, 1, 1])
        #expect(run.results["vanish"] == [0, 0])
        #expect(run.results["return"] == [1, 1])
    }

    @Test("the agent opens only AF_UNIX and AF_NETLINK sockets; Wi-Fi only NETLINK_GENERIC",
          enabled)
    func socketFamilies() async throws {
        let calls = try await Self.run.get().socketCalls
        #expect(!calls.isEmpty)
        for call in calls {
            #expect(call.hasPrefix("socket(AF_UNIX,") || call.hasPrefix("socket(AF_NETLINK,"), "\(call)")
        }
        #expect(calls.filter { $0.hasPrefix("socket(AF_NETLINK,") }.allSatisfy { $0.contains("NETLINK_GENERIC") })
        #expect(calls.contains { $0.contains("NETLINK_GENERIC") })
        #expect(!calls.contains { $0.contains("AF_INET") })
    }
}

/// Why the VM could not give results; a missing package is a skip with its reason.
struct VMFailure: Error, CustomStringConvertible {
    let description: String
}

/// The output of one VM run of the scenarios.
struct VMRun: Sendable {
    /// Scenario name → [wifi check-ins stored, arrivals logged].
    var results: [String: [Int]]
    /// Every `socket(...)` call strace saw the first agent make.
    var socketCalls: [String]
    /// The config file `enroll wifi --pin` wrote.
    var enrolled: String

    static func start() async -> Result<VMRun, VMFailure> {
        guard let binary = VirtualRadioTests.binary else { return .failure(VMFailure(description: "DESKDAYS_BIN is not set")) }
        let share = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-wifi-vm-\(getpid())")
        try? FileManager.default.removeItem(at: share)
        let (status, message) = await shell([VirtualRadioTests.harness, "test", binary, share.path, "420"])
        if let skip = try? String(contentsOf: share.appendingPathComponent("skip"), encoding: .utf8) {
            print("Wi-Fi VM tests skipped: \(skip)")
            return .failure(VMFailure(description: skip))
        }
        let log = (try? String(contentsOf: share.appendingPathComponent("script.log"), encoding: .utf8)) ?? ""
        guard status == 0,
              let text = try? String(contentsOf: share.appendingPathComponent("results.txt"), encoding: .utf8) else {
            return .failure(VMFailure(description: "VM run failed (status \(status)): \(message)\n\(log)"))
        }
        var results: [String: [Int]] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ")
            results[String(fields[0])] = fields.dropFirst().map { Int($0) ?? -1 }
        }
        let trace = (try? String(contentsOf: share.appendingPathComponent("strace-socket.txt"), encoding: .utf8)) ?? ""
        let calls = trace.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard let range = line.range(of: "socket(") else { return nil }
            return String(line[range.lowerBound...])
        }
        let enrolled = (try? String(contentsOf: share.appendingPathComponent("enroll.toml"), encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: share)
        return .success(VMRun(results: results, socketCalls: calls, enrolled: enrolled))
    }

    /// Runs a script with bash; its exit status and stderr.
    static func shell(_ arguments: [String]) async -> (status: Int32, errors: String) {
        do {
            let result = try await Program.run("/bin/bash", arguments, stdout: .discard)
            return (result.status, result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            return (127, "cannot start bash: \(error)")
        }
    }
}
