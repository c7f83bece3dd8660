import Foundation
import Testing

/// `deskdays enroll qr --image` as a user runs it: a code made by `qr make`
/// goes into the user's own config file, which keeps its comments and loads.
@Suite struct EnrollQRTests {
    /// A 32×32 white PNG: an image holding no code.
    static let blankPNG = "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAAAAABWESUoAAAAFklEQVR42mP4TwAwjCoYVTCqYKQqAAA/aPwuqUTQyAAAAABJRU5ErkJggg=="

    static let config = """
    # DeskDays: my settings
    [policy]
    period = "month"   # reviewed monthly

    # The webcam on the desk
    [qr]
    enabled = true
    payloads = [
        "deskdays:office:old", # last year's code
    ]

    [gps]
    enabled = false

    """

    @Test func enrollsTheCodeOfAnImageOnceKeepingTheFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let png = cli.folder.appendingPathComponent("hq.png").path
        let made = try cli.run(["qr", "make", "--payload", "deskdays:office:hq", "--out", png], paths: false)
        #expect(made.status == 0, "\(made.stderr)")

        let enrolled = try cli.run(["enroll", "qr", "--image", png])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("Code: \"deskdays:office:hq\""), "\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("Added the code to [qr] payloads"), "\(enrolled.stdout)")
        #expect(!enrolled.stdout.contains("QR check-ins are off"))
        let after = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(after == Self.config.replacingOccurrences(
            of: "    \"deskdays:office:old\", # last year's code\n",
            with: "    \"deskdays:office:old\", # last year's code\n    \"deskdays:office:hq\",\n"), "\(after)")
        let check = try cli.run(["config", "check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let scanned = try cli.run(["qr", "scan", png])
        #expect(scanned.stdout == "\(png)\tdeskdays:office:hq\tpayload-2\n", "\(scanned.stdout)\(scanned.stderr)")

        let again = try cli.run(["enroll", "qr", "--image", png])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("already in [qr] payloads"), "\(again.stdout)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == after)
    }

    @Test func prefixAndADisabledMethodGetAHint() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("# no qr yet\n[policy]\nperiod = \"month\"\n")
        let png = cli.folder.appendingPathComponent("badge.png").path
        #expect(try cli.run(["qr", "make", "--payload", "deskdays:badge:", "--out", png], paths: false).status == 0)
        let enrolled = try cli.run(["enroll", "qr", "--image", png, "--prefix"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("QR check-ins are off: set enabled = true under [qr]"), "\(enrolled.stdout)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8)
                == "# no qr yet\n[policy]\nperiod = \"month\"\n\n[qr]\nprefixes = [\"deskdays:badge:\"]\n")
        #expect(try cli.run(["config", "check"]).status == 0)
    }

    @Test func anImageWithoutACodeIsOneSentenceAndChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let blank = cli.folder.appendingPathComponent("blank.png")
        try #require(Data(base64Encoded: Self.blankPNG)).write(to: blank)
        let result = try cli.run(["enroll", "qr", "--image", blank.path])
        #expect(result.status == 1)
        #expect(result.stderr == "deskdays: no QR code was found in \(blank.path); use a sharper, larger or straighter picture of the code.\n",
                "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == Self.config)

        let missing = try cli.run(["enroll", "qr", "--image", cli.folder.appendingPathComponent("absent.png").path])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1
                && missing.stderr.contains("does not exist"), "\(missing.stderr)")
    }

    @Test func aBrokenConfigIsReportedNotEdited() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let broken = "[qr]\npayload = [\"typo\"]\n"
        try cli.writeConfig(broken)
        let png = cli.folder.appendingPathComponent("hq.png").path
        #expect(try cli.run(["qr", "make", "--payload", "deskdays:office:hq", "--out", png], paths: false).status == 0)
        let result = try cli.run(["enroll", "qr", "--image", png])
        #expect(result.status == 1)
        #expect(result.stderr.contains("config.toml:2:"), "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == broken)
    }
}
