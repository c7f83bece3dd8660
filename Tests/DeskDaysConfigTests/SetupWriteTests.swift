import DeskDaysConfig
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `setup`'s write (`ConfigEditor.replaceKeepingBackup`) on a dotfiles
/// setup: through the link, the backup a plain copy beside it, nothing
/// touched at a backup name that is not a backup of the user's, and every
/// failure one sentence. And what every edit keeps: a byte order mark, and
/// no temporary file left by a process that was killed.
struct SetupWriteTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-setup-\(UUID().uuidString)").path
    var config: String { folder + "/config/config.toml" }
    var backup: String { config + ".bak" }
    var dotfile: String { folder + "/dotfiles/deskdays/config.toml" }

    /// config/config.toml → dotfiles/deskdays/config.toml (as stow links it), holding `text`.
    func linked(_ text: String) throws {
        for path in [config, dotfile] {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        try text.write(toFile: dotfile, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: dotfile)
    }

    @Test func setupWritesThroughTheLinkAndKeepsAPlainCopy() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try linked("[policy]\n# mine\n")
        let kept = try ConfigEditor.replaceKeepingBackup(config, with: "[policy]\ntimezone = \"UTC\"\n")
        #expect(kept == backup)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: config) == dotfile, "the link stays")
        #expect(try String(contentsOfFile: dotfile, encoding: .utf8) == "[policy]\ntimezone = \"UTC\"\n")
        var info = stat()
        #expect(lstat(backup, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "a copy, not a link into the dotfiles")
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == "[policy]\n# mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (dotfile as NSString).deletingLastPathComponent) == ["config.toml"])
        // A second run replaces its own backup.
        #expect(try ConfigEditor.replaceKeepingBackup(config, with: "[policy]\n") == backup)
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == "[policy]\ntimezone = \"UTC\"\n")
    }

    @Test(arguments: ["folder", "link"])
    func somethingElseAtTheBackupsNameIsLeftAloneAndNothingWritten(_ kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try linked("[policy]\n# mine\n")
        let theirs = folder + "/theirs.txt"
        try "keep me\n".write(toFile: theirs, atomically: true, encoding: .utf8)
        if kind == "folder" {
            try FileManager.default.createDirectory(atPath: backup + "/inside", withIntermediateDirectories: true)
        } else {
            try FileManager.default.createSymbolicLink(atPath: backup, withDestinationPath: theirs)
        }
        do {
            try ConfigEditor.replaceKeepingBackup(config, with: "[policy]\n")
            Issue.record("written over a \(kind) at the backup's name")
        } catch {
            #expect(error.description.hasPrefix("\(backup) is ") && error.description.contains("nothing was changed")
                    && !error.description.contains("\n"), "\(error.description)")
        }
        #expect(try String(contentsOfFile: dotfile, encoding: .utf8) == "[policy]\n# mine\n")
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "keep me\n")
        if kind == "folder" { #expect(FileManager.default.fileExists(atPath: backup + "/inside")) }
    }

    /// A folder setup may not write in: one sentence, no error domain. (Root
    /// writes anywhere a mode forbids, so as root the folder is /proc/self.)
    @Test func aFolderItCannotWriteInIsOneSentence() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path: String
        if getuid() == 0 {
            path = "/proc/self/comm"
        } else {
            try FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
            try "[policy]\n".write(toFile: config, atomically: true, encoding: .utf8)
            chmod(folder + "/config", 0o500)
            path = config
        }
        defer { chmod(folder + "/config", 0o700) }
        do {
            try ConfigEditor.replaceKeepingBackup(path, with: "[policy]\n")
            Issue.record("wrote into a folder it may not write in")
        } catch {
            #expect(error.description.hasPrefix("cannot keep the old configuration as \(path).bak (") && !error.description.contains("Domain")
                    && !error.description.contains("\n"), "\(error.description)")
        }
    }

    /// `enable`'s edit keeps a UTF-8 byte order mark, and removes the
    /// temporary file a killed process left (never a live process's).
    @Test func anEditKeepsTheByteOrderMarkAndRemovesDeadTemporaries() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
        try Data([0xEF, 0xBB, 0xBF] + Array("[desktop]\ntray = true\n".utf8)).write(to: URL(fileURLWithPath: config))
        var dead: pid_t = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = folder + "/config/.config.toml.\(dead).tmp", live = folder + "/config/.config.toml.1.tmp"
        for leftover in [stale, live] { try "half a file".write(toFile: leftover, atomically: false, encoding: .utf8) }
        #expect(try ConfigEditor.setFlag(false, key: "tray", inTable: "desktop", file: config) { $0.desktop.tray = false })
        let bytes = try #require(FileManager.default.contents(atPath: config))
        #expect(Array(bytes) == [0xEF, 0xBB, 0xBF] + Array("[desktop]\ntray = false\n".utf8), "\(String(decoding: bytes, as: UTF8.self))")
        #expect(!FileManager.default.fileExists(atPath: stale), "a killed process's temporary is removed")
        #expect(FileManager.default.fileExists(atPath: live), "a live process's is not")
    }
}
