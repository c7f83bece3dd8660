import DeskDaysConfig
import Foundation
import Testing

/// `ConfigEditor.addString`: a value goes into one list of the user's file,
/// every other byte stays as they wrote it, and the result means what it should.
struct ConfigEditorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-editor-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("config/config.toml").path }

    /// Writes `text` (unless nil), adds `value` and returns the outcome and the file afterwards.
    func add(_ value: String, to text: String?, prefixes: Bool = false) throws -> (ConfigEditor.Addition, String) {
        if let text {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let outcome = try ConfigEditor.addString(value, toArray: prefixes ? "prefixes" : "payloads", inTable: "qr",
                                                 file: path, values: prefixes ? \.qr.prefixes : \.qr.payloads)
        return (outcome, try String(contentsOfFile: path, encoding: .utf8))
    }

    func cleanup() { try? FileManager.default.removeItem(at: folder) }

    @Test func noTableAppendsABlock() throws {
        defer { cleanup() }
        let (outcome, text) = try add("deskdays:office:hq", to: "# my policy\n[policy]\nperiod = \"month\"")
        #expect(outcome == .added)
        #expect(text == "# my policy\n[policy]\nperiod = \"month\"\n\n[qr]\npayloads = [\"deskdays:office:hq\"]\n")
        #expect(try ConfigLoader.load(path: path).policy.period == .month)
    }

    @Test func missingFileIsCreatedPrivate() throws {
        defer { cleanup() }
        let (outcome, text) = try add("deskdays:office:hq", to: nil)
        #expect(outcome == .added)
        #expect(text == "[qr]\npayloads = [\"deskdays:office:hq\"]\n")
        let file = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let directory = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        #expect(file == 0o600)
        #expect(directory == 0o700)
    }

    @Test func tableWithoutTheKeyGetsItRightAfterTheHeader() throws {
        defer { cleanup() }
        let before = """
        # Office codes
        [qr] # the webcam
        enabled = true   # on
        device = "/dev/video2"

        [[nfc.tags]]
        name = "desk"
        uid = "0102"

        """
        let (_, text) = try add("deskdays:office:hq", to: before)
        #expect(text == before.replacingOccurrences(of: "[qr] # the webcam\n",
                                                    with: "[qr] # the webcam\npayloads = [\"deskdays:office:hq\"]\n"))
        let loaded = try ConfigLoader.load(path: path)
        #expect(loaded.qr.payloads == ["deskdays:office:hq"] && loaded.qr.device == "/dev/video2" && loaded.nfc.tags.count == 1)
    }

    @Test func headerOnTheLastLineWithoutNewline() throws {
        defer { cleanup() }
        let (_, text) = try add("a", to: "[qr]")
        #expect(text == "[qr]\npayloads = [\"a\"]\n")
    }

    @Test func prefixesGoToTheirOwnList() throws {
        defer { cleanup() }
        let (_, text) = try add("deskdays:badge:", to: "[qr]\npayloads = [\"a\"]\n", prefixes: true)
        #expect(text == "[qr]\nprefixes = [\"deskdays:badge:\"]\npayloads = [\"a\"]\n")
    }

    @Test(arguments: [
        ("payloads = [\"a\"] # first", "payloads = [\"a\", \"new\"] # first"),
        ("payloads = [ \"a\" , 'b' ]", "payloads = [ \"a\" , 'b', \"new\" ]"),
        ("payloads = [\"a\",]", "payloads = [\"a\", \"new\"]"),
        ("payloads = []", "payloads = [\"new\"]"),
        ("payloads=[\"x]#\"]", "payloads=[\"x]#\", \"new\"]"),
        ("\"payloads\" = [\"a\"]", "\"payloads\" = [\"a\", \"new\"]"),
    ])
    func singleLineList(before: String, after: String) throws {
        defer { cleanup() }
        let (_, text) = try add("new", to: "[qr]\nenabled = true\n\(before)\ndevice = \"/dev/video0\"\n")
        #expect(text == "[qr]\nenabled = true\n\(after)\ndevice = \"/dev/video0\"\n")
    }

    @Test func multiLineListWithTrailingCommas() throws {
        defer { cleanup() }
        let before = "[qr]\npayloads = [\n    \"a\", # front door\n    # \"old\",\n    \"b\",\n]\nenabled = true\n"
        let (_, text) = try add("new", to: before)
        #expect(text == "[qr]\npayloads = [\n    \"a\", # front door\n    # \"old\",\n    \"b\",\n    \"new\",\n]\nenabled = true\n")
        #expect(try ConfigLoader.load(path: path).qr.payloads == ["a", "b", "new"])
    }

    @Test func multiLineListWithoutTrailingComma() throws {
        defer { cleanup() }
        let (_, text) = try add("new", to: "[qr]\npayloads = [\n  \"a\",\n  \"b\"  # lift\n  ]\n")
        #expect(text == "[qr]\npayloads = [\n  \"a\",\n  \"b\",  # lift\n  \"new\"\n  ]\n")
    }

    @Test func multiLineListClosedAfterItsLastElement() throws {
        defer { cleanup() }
        let (_, text) = try add("new", to: "[qr]\npayloads = [\n  \"a\",\n  \"b\"]\n")
        #expect(text == "[qr]\npayloads = [\n  \"a\",\n  \"b\", \"new\"]\n")
    }

    @Test func emptyMultiLineList() throws {
        defer { cleanup() }
        let (_, text) = try add("new", to: "[qr]\npayloads = [\n]\n")
        #expect(text == "[qr]\npayloads = [\n    \"new\",\n]\n")
    }

    @Test func windowsLineEndingsAreKept() throws {
        defer { cleanup() }
        let (_, text) = try add("new", to: "[qr]\r\npayloads = [\r\n  \"a\",\r\n]\r\n")
        #expect(Array(text.utf8) == Array("[qr]\r\npayloads = [\r\n  \"a\",\r\n  \"new\",\r\n]\r\n".utf8))
    }

    @Test func alreadyPresentChangesNothing() throws {
        defer { cleanup() }
        let before = "[qr]\n# keep me\npayloads = [ 'deskdays:office:hq' ]\n"
        let (outcome, text) = try add("deskdays:office:hq", to: before)
        #expect(outcome == .alreadyPresent)
        #expect(text == before)
    }

    @Test(arguments: ["say \"hi\"", "C:\\codes\\hq", "tab\there", "line\nbreak", "ünïcødé ✓", "'single'", "#not a comment ]"])
    func valuesNeedingEscapesRoundTrip(value: String) throws {
        defer { cleanup() }
        let (outcome, _) = try add(value, to: "[qr]\npayloads = [\"a\"]\n")
        #expect(outcome == .added)
        #expect(try ConfigLoader.load(path: path).qr.payloads == ["a", value])
        #expect(try add(value, to: nil).0 == .alreadyPresent)
    }

    /// Strings that look like headers, brackets and comments must not fool the edit.
    @Test func lookalikesInsideStringsAreIgnored() throws {
        defer { cleanup() }
        let before = """
        [qr]
        device = '''
        [gps]
        payloads = ["x"]'''
        payloads = ["a]", 'b,#c', \"\"\"d
        ]\"\"\"]
        [gps]
        enabled = false

        """
        let (_, text) = try add("new", to: before)
        #expect(text == before.replacingOccurrences(of: "]\"\"\"]", with: "]\"\"\", \"new\"]"))
        #expect(try ConfigLoader.load(path: path).qr.payloads == ["a]", "b,#c", "d\n]", "new"])
    }

    /// A list written as a dotted key at the top level is not a shape the
    /// edit follows: the result would not load, so nothing is written.
    @Test func unusualShapeWritesNothingAndSaysWhatToAdd() throws {
        defer { cleanup() }
        let before = "qr.payloads = [\"a\"]\n"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try before.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigEditor.ManualEditNeeded.self) {
            try ConfigEditor.addString("new", toArray: "payloads", inTable: "qr", file: path, values: \.qr.payloads)
        }
        do {
            _ = try ConfigEditor.addString("new", toArray: "payloads", inTable: "qr", file: path, values: \.qr.payloads)
        } catch let error as ConfigEditor.ManualEditNeeded {
            #expect(error.instruction.contains("payloads = [\"new\"]"), "\(error.instruction)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test func aBrokenFileIsRefusedUntouched() throws {
        defer { cleanup() }
        let before = "[qr]\npayload = [\"a\"]\n"
        #expect(throws: ConfigError.self) { try add("new", to: before) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test func modeAndSymbolicLinkAreKept() throws {
        defer { cleanup() }
        let real = folder.appendingPathComponent("dotfiles/deskdays.toml").path
        try FileManager.default.createDirectory(atPath: (real as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "[qr]\n".write(toFile: real, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: real)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: real)
        let (outcome, _) = try add("new", to: nil)
        #expect(outcome == .added)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "[qr]\npayloads = [\"new\"]\n")
        #expect(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (real as NSString).deletingLastPathComponent)
        #expect(leftovers == ["deskdays.toml"])
    }
}
