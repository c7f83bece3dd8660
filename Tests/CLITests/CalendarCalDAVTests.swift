import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The `[calendar]` folder with real peers: Debian's Radicale (a CalDAV
/// server on 127.0.0.1) and vdirsyncer keeping a vdir in step with it.
/// An event PUT on the server reaches `deskdays status` after a sync; an
/// office day DeskDays writes reaches the server, and leaves it when cleared.
@Suite struct CalendarCalDAVTests {
    static let now = ["DESKDAYS_NOW": "2026-11-20T12:00:00Z"]

    /// A port free on 127.0.0.1 now (the kernel's choice).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw HarnessError("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func curl(_ arguments: [String]) async throws -> Program.Output {
        try await Program.run("/usr/bin/curl", ["-s", "-u", "alice:secret", "--noproxy", "*"] + arguments)
    }

    @Test func eventsTravelBetweenRadicaleAndDeskDaysThroughVdirsyncer() async throws {
        for tool in ["radicale", "vdirsyncer", "curl"] where !toolExists(tool) {
            print("CalendarCalDAVTests skipped: \(tool) is not installed (deps/apt-test.txt lists it)")
            return
        }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let root = cli.folder.path
        let port = try Self.freePort()
        let base = "http://127.0.0.1:\(port)/alice/work/"
        try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = none
            [storage]
            filesystem_folder = \(root)/radicale
            [rights]
            type = owner_only
            [logging]
            level = warning

            """.write(toFile: root + "/radicale.conf", atomically: true, encoding: .utf8)
        let server = try await Child.start("/usr/bin/radicale", ["--config", root + "/radicale.conf"],
                                           environment: ["HOME": root, "PATH": "/usr/bin:/bin"],
                                           stdout: .file(root + "/radicale.log"), stderr: .file(root + "/radicale.log"))
        defer { server.signal(SIGKILL) }
        let up = try await eventually(seconds: 30, "Radicale answering on \(base)") {
            try await curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/"]).stdout != "000"
        }
        #expect(up, "\((try? String(contentsOfFile: root + "/radicale.log", encoding: .utf8)) ?? "")")
        guard up else { return }
        #expect(try await curl(["-X", "MKCALENDAR", "-o", "/dev/null", "-w", "%{http_code}", base]).stdout == "201")

        let vdir = root + "/calendars/work"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/vdirsyncer-status", withIntermediateDirectories: true)
        let config = root + "/vdirsyncer.conf"
        try """
            [general]
            status_path = "\(root)/vdirsyncer-status/"

            [pair work]
            a = "work_local"
            b = "work_remote"
            collections = null

            [storage work_local]
            type = "filesystem"
            path = "\(vdir)/"
            fileext = ".ics"

            [storage work_remote]
            type = "caldav"
            url = "\(base)"
            username = "alice"
            password = "secret"

            """.write(toFile: config, atomically: true, encoding: .utf8)
        func vdirsyncer(_ arguments: [String]) async throws {
            let output = try await Program.run("/usr/bin/vdirsyncer", ["-c", config] + arguments,
                                               environment: ["HOME": root, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
            #expect(output.status == 0, "vdirsyncer \(arguments): \(output.stdout)\(output.stderr)")
        }
        try await vdirsyncer(["discover", "work"])
        try cli.writeConfig("[calendar]\nfolder = \"\(vdir)\"\nwrite = true\n")

        // Created on the server (as any CalDAV client would), synced down.
        let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//curl//EN\r\nBEGIN:VEVENT\r\nUID:pto-2026-11-19@example.org\r\n"
            + "DTSTAMP:20261118T090000Z\r\nDTSTART;VALUE=DATE:20261119\r\nSUMMARY:PTO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        // From a file: Radicale refuses a chunked upload (curl -T - sends one).
        try event.write(toFile: root + "/pto.ics", atomically: true, encoding: .utf8)
        let put = try await curl(["-T", root + "/pto.ics", "-H", "Content-Type: text/calendar", "-o", "/dev/null",
                                  "-w", "%{http_code}", base + "pto.ics"])
        #expect(put.stdout == "201", "\(put.stdout)\(put.stderr)")
        let before = try await CalendarTests.run(cli, ["status", "--format", "json"])
        #expect(before.stdout.contains("\"excused\":0"), "\(before.stdout)\(before.stderr)")
        try await vdirsyncer(["sync"])
        let after = try await CalendarTests.run(cli, ["status", "--format", "json"])
        #expect(after.status == 0 && after.stdout.contains("\"excused\":1"), "\(after.stdout)\(after.stderr)")
        let explained = try await CalendarTests.run(cli, ["explain", "2026-11-19"]).stdout
        #expect(explained.contains("from the calendar event \"PTO\""), "\(explained)")

        // An office day written by DeskDays goes up; cleared, it goes away.
        #expect(try await CalendarTests.run(cli, ["checkin", "--date", "2026-11-23"]).status == 0)
        try await vdirsyncer(["sync"])
        let served = try await curl([base]).stdout
        #expect(served.contains("UID:deskdays-office-2026-11-23@deskdays") && served.contains("SUMMARY:Office"), "\(served)")
        #expect(try await CalendarTests.run(cli, ["clear", "--date", "2026-11-23"]).status == 0)
        try await vdirsyncer(["sync"])
        let gone = try await curl([base]).stdout
        #expect(!gone.contains("deskdays-office-2026-11-23") && gone.contains("UID:pto-2026-11-19@example.org"), "\(gone)")
    }
}
