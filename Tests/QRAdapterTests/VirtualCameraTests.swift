import Foundation
import QR
import QRAdapter
import Spawn
import TestSupport
import Testing

/// End to end on a virtual camera: a qemu VM (TCG) boots Debian's kernel
/// with the harness initramfs (built now from Debian packages), loads
/// `vivid`, loops a QR frame from its output device into its capture device,
/// and runs this build's `deskdays` inside: `qr scan --camera` while another
/// program holds the camera (one clear error), `checkin --qr`, then the agent
/// in watch mode, which must survive the camera being unplugged under it,
/// answer a manual check-in on its socket meanwhile, and store the code once
/// the camera is back; the last two must each leave exactly one stored qr
/// check-in. One boot serves all.
@Suite(.tags(.hardwareBench), .serialized) struct VirtualCameraTests {
    static let kernels = (try? FileManager.default.contentsOfDirectory(atPath: "/boot"))?.filter { $0.hasPrefix("vmlinuz-") } ?? []

    static var missing: String? {
        if !Support.has("qemu-system-x86_64") { return "qemu-system-x86_64 not installed: apt-get install qemu-system-x86" }
        if kernels.isEmpty { return "no Debian kernel in /boot: apt-get install linux-image-amd64" }
        if !FileManager.default.isExecutableFile(atPath: "/bin/busybox") { return "busybox-static not installed: apt-get install busybox-static" }
        if !Support.has("cpio") || !Support.has("modprobe") { return "cpio or kmod not installed: apt-get install cpio kmod" }
        if !Support.has("v4l2-ctl") { return "v4l2-ctl not installed: apt-get install v4l-utils" }
        if !Support.has("socat") { return "socat not installed: apt-get install socat" }
        if Support.binary == nil { return "the deskdays binary was not found: run `swift build` first or set DESKDAYS_BIN" }
        return nil
    }

    @Test func prerequisites() {
        if let missing = Self.missing { print("VirtualCameraTests skipped: \(missing)") }
    }

    @Test(.enabled(if: missing == nil, "\(missing ?? "")"), .timeLimit(.minutes(8)))
    func qrCodeOnTheVirtualCameraChecksInOnce() async throws {
        let binary = try #require(Support.binary)
        let share = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-vm-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: share) }

        let payload = "deskdays:office:vm-\(Int.random(in: 1000...9999))"
        let frame = Support.canvas(try QRCodeImage(payload: payload).luma(scale: 6), width: 640, height: 480)
        try Data(Support.yuyv(frame)).write(to: share.appendingPathComponent("frame.yuyv"))
        try Data(payload.utf8).write(to: share.appendingPathComponent("payload.txt"))

        let vm = try await Support.run(Support.harness.appendingPathComponent("run-vm.sh").path, [
            Support.harness.appendingPathComponent("qr-camera.sh").path, share.path, "\(binary),test", "420"])
        let read = { (name: String) in (try? String(contentsOf: share.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        let context = "vm: \(vm.stderr)\nscript:\n\(read("script.log"))\ncheckin:\n\(read("checkin.out"))\nagent:\n\(read("agent.log"))\nconsole tail:\n\(read("console.log").suffix(1500))"
        try #require(vm.status == 0, "\(context)")

        // Busy: another program streams from the camera.
        #expect(read("busy.status").trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(context)\nbusy:\n\(read("busy.out"))")
        #expect(read("busy.out").contains("is in use by another program"), "\(read("busy.out"))")
        // On demand: `deskdays checkin --qr` saw the code and stored it.
        #expect(read("checkin.status").trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(context)")
        #expect(read("checkin.out").contains("Checked in by QR code (rule payload-1)"), "\(context)")
        // Watch mode: the agent stored one check-in and stopped cleanly on SIGTERM.
        #expect(read("agent.status").trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(context)")
        #expect(!read("agent.log").contains(payload), "the payload never reaches the log")
        // Unplugged under the running agent: one clear line, and the agent carries on.
        let log = read("agent.log")
        #expect(log.contains("went away (unplugged?)"), "\(context)")
        #expect(read("script.log").contains("agent still running after the unplug"), "\(context)")
        // Meanwhile its control socket acknowledged a manual check-in.
        #expect(read("manual.out").contains("\"ok\":true"), "\(context)\nmanual:\n\(read("manual.out"))")
        // Plugged back in at the same node: reopened, and the code in view was
        // stored only then (nothing was in view before the unplug).
        #expect(read("script.log").contains("camera back as"), "\(context)")
        #expect(log.components(separatedBy: "camera opened").count >= 3, "\(context)")
        let unplugged = log.range(of: "went away"), stored = log.range(of: "qr check-in stored")
        #expect(unplugged != nil && stored != nil && unplugged!.lowerBound < stored!.lowerBound, "\(context)")
        #expect(read("script.log").contains("agent still running after the return"), "\(context)")

        let config = share.appendingPathComponent("empty.toml").path
        _ = FileManager.default.createFile(atPath: config, contents: Data())
        for database in ["checkin.sqlite", "agent.sqlite"] {
            let path = share.appendingPathComponent(database).path
            let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            let explain = try await Support.run(binary, ["explain", today, "--config", config, "--database", path],
                                          environment: ["TZ": "UTC", "DESKDAYS_NOW": "", "DESKDAYS_TODAY": ""])
            let text = String(decoding: explain.stdout, as: UTF8.self)
            #expect(text.components(separatedBy: "check-in  qr").count == 2, "\(database): exactly one qr check-in\n\(text)\n\(explain.stderr)")
            #expect(text.contains("rule \"payload-1\""), "\(database)\n\(text)")
            if database == "agent.sqlite" {
                let manual = try await Support.run(binary, ["explain", "2026-01-05", "--config", config, "--database", path],
                                             environment: ["TZ": "UTC", "DESKDAYS_NOW": "", "DESKDAYS_TODAY": ""])
                let text = String(decoding: manual.stdout, as: UTF8.self)
                #expect(text.contains("office") && text.contains("camera gone"), "the manual check-in sent while the camera was gone\n\(text)\n\(manual.stderr)")
            }
            let dump = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(dump.range(of: Data(payload.utf8)) == nil, "\(database) never stores the payload")
        }
    }
}
