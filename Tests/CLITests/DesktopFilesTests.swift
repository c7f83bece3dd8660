import Foundation
import Spawn
import TestSupport
import Testing

/// The app's files for the desktop (data/): the desktop entry, the AppStream
/// metainfo and the icons, checked as software centres and menus read them
/// (`desktop-file-validate`, `appstreamcli validate --no-net`), in the
/// repository and as `make install-desktop` installs them.
@Suite struct DesktopFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let id = "io.github.deskdays.DeskDays"
    static let entry = root.appendingPathComponent("data/\(id).desktop").path
    static let metainfo = root.appendingPathComponent("data/\(id).metainfo.xml").path
    static let missing: String? = {
        for (tool, package) in [("desktop-file-validate", "desktop-file-utils"), ("appstreamcli", "appstream"),
                                ("rsvg-convert", "librsvg2-bin"), ("make", "make")] where !toolExists(tool) {
            return "\(tool) not installed: apt-get install \(package)"
        }
        return nil
    }()

    func tool(_ arguments: [String]) async throws -> Program.Output {
        try await Program.run("/usr/bin/env", arguments)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theDesktopEntryAndMetainfoPassTheValidators() async throws {
        let desktop = try await tool(["desktop-file-validate", Self.entry])
        #expect(desktop.status == 0 && desktop.stdout.isEmpty, "\(desktop.stdout)\(desktop.stderr)")
        let appstream = try await tool(["appstreamcli", "validate", "--no-net", "--explain", Self.metainfo])
        #expect(appstream.status == 0, "\(appstream.stdout)\(appstream.stderr)")

        // The entry starts the window's executable (a product of Package.swift) and offers "Check in".
        let text = try String(contentsOfFile: Self.entry, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("Exec=deskdays-app") && lines.contains("Icon=\(Self.id)"), "\(text)")
        #expect(lines.contains("Categories=Office;Calendar;") && lines.contains { $0.hasPrefix("Keywords=") })
        #expect(lines.contains("[Desktop Action check-in]") && lines.contains("Name=Check in") && lines.contains("Exec=deskdays checkin"))
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains(".executable(name: \"deskdays-app\""), "the entry's Exec names a product")

        // The metainfo launches that entry, and its screenshots are https images kept in the repository.
        let xml = try String(contentsOfFile: Self.metainfo, encoding: .utf8)
        #expect(xml.contains("<launchable type=\"desktop-id\">\(Self.id).desktop</launchable>"))
        #expect(xml.contains("<content_rating type=\"oars-1.1\"/>") && xml.contains("<release version="))
        let images = xml.components(separatedBy: "<image>").dropFirst().compactMap { $0.components(separatedBy: "</image>").first }
        #expect(!images.isEmpty)
        for image in images {
            #expect(image.hasPrefix("https://github.com/deskdays/deskdays/raw/main/data/screenshots/") && image.hasSuffix(".png"), "\(image)")
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theIconsDrawAtTheirSizes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-icons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (icon, size) in [("scalable/apps/\(Self.id).svg", 128), ("symbolic/apps/\(Self.id)-symbolic.svg", 16)] {
            let png = folder.appendingPathComponent("\(size).png").path
            let drawn = try await tool(["rsvg-convert", "-w", "\(size)", "-h", "\(size)", "-o", png,
                                        Self.root.appendingPathComponent("data/icons/hicolor/\(icon)").path])
            #expect(drawn.status == 0, "\(icon): \(drawn.stderr)")
            // A PNG header with the asked size (bytes 16…23: width, height).
            let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: png))) ?? Data())
            #expect(bytes.count > 24 && bytes[16..<20] == [0, 0, 0, UInt8(size)] && bytes[20..<24] == [0, 0, 0, UInt8(size)], "\(icon)")
        }
    }

    /// `make install-desktop`, as `make install` runs it, into a scratch prefix: every file where
    /// docs/cli.md says, the entry's Exec lines naming the installed programs and still valid.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func makeInstallPutsEveryFileWhereTheDesktopLooks() async throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let data = prefix.appendingPathComponent("share").path, bin = prefix.appendingPathComponent("bin").path
        let make = try await Program.run("/usr/bin/env", ["make", "--no-print-directory", "-C", Self.root.path, "install-desktop",
                                                          "DATADIR=\(data)", "BINDIR=\(bin)"])
        #expect(make.status == 0, "\(make.stdout)\(make.stderr)")
        for file in ["applications/\(Self.id).desktop", "metainfo/\(Self.id).metainfo.xml",
                     "icons/hicolor/scalable/apps/\(Self.id).svg", "icons/hicolor/symbolic/apps/\(Self.id)-symbolic.svg",
                     "dbus-1/interfaces/io.github.deskdays.DeskDays1.xml"] {
            #expect(FileManager.default.fileExists(atPath: "\(data)/\(file)"), "\(file)")
        }
        let installed = "\(data)/applications/\(Self.id).desktop"
        let lines = ((try? String(contentsOfFile: installed, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.contains("Exec=\(bin)/deskdays-app") && lines.contains("Exec=\(bin)/deskdays checkin"), "\(lines)")
        let valid = try await tool(["desktop-file-validate", installed])
        #expect(valid.status == 0 && valid.stdout.isEmpty, "\(valid.stdout)")
    }
}
