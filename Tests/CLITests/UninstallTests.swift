import Foundation
import Testing
import Spawn
import TestSupport

/// `make uninstall` (Makefile, "Installing for the current user") on the
/// layout `make install` leaves, in a scratch HOME: every installed file
/// goes, the user's data and configuration stay, and the last line says
/// where they are. (Installing needs a release build: DebianPackageTests
/// covers the package's purge the same way.)
@Suite struct UninstallTests {
    static let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("make uninstall keeps the data and the configuration, and says where they are",
          .enabled(if: toolExists("make"), "make is not installed"))
    func keepsTheData() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-uninstall-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let installed = [".local/bin/deskdays", ".local/libexec/deskdays/deskdays-cli", ".local/libexec/deskdays/deskdays-hardware",
                         ".config/systemd/user/deskdays.service",
                         ".local/share/dbus-1/services/io.github.deskdays.DeskDays1.service",
                         ".local/share/bash-completion/completions/deskdays", ".local/share/zsh/site-functions/_deskdays",
                         ".local/share/fish/vendor_completions.d/deskdays.fish", ".local/share/man/man1/deskdays.1",
                         ".local/share/doc/deskdays/config.toml.sample", ".local/share/locale/de/LC_MESSAGES/deskdays.mo",
                         ".local/share/deskdays/holidays.tsv",
                         "udev/70-deskdays-gps.rules",
                         // The app (`make install-desktop`).
                         ".local/bin/deskdays-app", ".local/share/applications/io.github.deskdays.DeskDays.desktop",
                         ".local/share/metainfo/io.github.deskdays.DeskDays.metainfo.xml",
                         ".local/share/icons/hicolor/scalable/apps/io.github.deskdays.DeskDays.svg",
                         ".local/share/icons/hicolor/symbolic/apps/io.github.deskdays.DeskDays-symbolic.svg",
                         ".local/share/dbus-1/interfaces/io.github.deskdays.DeskDays1.xml"]
        let kept = [".local/share/deskdays/deskdays.sqlite", ".config/deskdays/config.toml",
                    ".local/share/locale/de/LC_MESSAGES/other.mo", ".config/systemd/user/other.service", "udev/99-other.rules"]
        for path in installed + kept {
            let url = URL(fileURLWithPath: home).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x\n".utf8).write(to: url)
        }
        // HOME and PREFIX point into the scratch folder; no session bus and no
        // runtime folder of a real user, so `systemctl --user` reaches nobody's manager.
        let result = try await Program.run(
            "make", ["--no-print-directory", "-C", Self.project.path, "uninstall", "HOME=\(home)", "UDEVDIR=\(home)/udev"],
            overrides: ["HOME": home, "XDG_DATA_HOME": nil, "XDG_CONFIG_HOME": nil, "XDG_RUNTIME_DIR": "\(home)/run",
                        "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home)/run/bus", "MAKEFLAGS": nil, "MAKELEVEL": nil, "MFLAGS": nil])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for path in installed where getuid() == 0 || !path.hasPrefix("udev/") {
            #expect(!FileManager.default.fileExists(atPath: "\(home)/\(path)"), "left: \(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(home)/.local/libexec/deskdays"))
        for path in kept {
            #expect(FileManager.default.fileExists(atPath: "\(home)/\(path)"), "removed: \(path)")
        }
        let last = result.stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(last == "Uninstalled. Your data (\(home)/.local/share/deskdays) and configuration (\(home)/.config/deskdays) are kept.",
                "\(result.stdout)")
    }
}
