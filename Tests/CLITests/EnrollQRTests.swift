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

    @Test func enrollsTheCodeOfAnImageOnceKeepingTheFile() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let png = cli.folder.appendingPathComponent("hq.png").path
        let made = try await cli.run(["qr", "make", "--payload", "deskdays:office:hq", "--out", png], paths: false)
        #expect(made.status == 0, "\(made.stderr)")

        let enrolled = try await cli.run(["enroll", "qr", "--image", png])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("Code: \"deskdays:office:hq\""), "\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("Added the code to [qr] payloads"), "\(enrolled.stdout)")
        #expect(!enrolled.stdout.contains("QR check-ins are off"))
        let after = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(after == Self.config.replacingOccurrences(
            of: "    \"deskdays:office:old\", # last year's code\n",
            with: "    \"deskdays:office:old\", # last year's code\n    \"deskdays:office:hq\",\n"), "\(after)")
        let check = try await cli.run(["config", "check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let scanned = try await cli.run(["qr", "scan", png])
        #expect(scanned.stdout == "\(png)\tdeskdays:office:hq\tpayload-2\n", "\(scanned.stdout)\(scanned.stderr)")

        let again = try await cli.run(["enroll", "qr", "--image", png])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("already in [qr] payloads"), "\(again.stdout)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == after)
    }

    @Test func prefixAndADisabledMethodGetAHint() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("# no qr yet\n[policy]\nperiod = \"month\"\n")
        let png = cli.folder.appendingPathComponent("badge.png").path
        #expect(try await cli.run(["qr", "make", "--payload", "deskdays:badge:", "--out", png], paths: false).status == 0)
        let enrolled = try await cli.run(["enroll", "qr", "--image", png, "--prefix"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("QR check-ins are off: `deskdays enable qr` turns them on"), "\(enrolled.stdout)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8)
                == "# no qr yet\n[policy]\nperiod = \"month\"\n\n[qr]\nprefixes = [\"deskdays:badge:\"]\n")
        #expect(try await cli.run(["config", "check"]).status == 0)
    }

    @Test func anImageWithoutACodeIsOneSentenceAndChangesNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let blank = cli.folder.appendingPathComponent("blank.png")
        try #require(Data(base64Encoded: Self.blankPNG)).write(to: blank)
        let result = try await cli.run(["enroll", "qr", "--image", blank.path])
        #expect(result.status == 1)
        #expect(result.stderr == "deskdays: no QR code was found in \(blank.path); use a sharper, larger or straighter picture of the code.\n",
                "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == Self.config)

        let missing = try await cli.run(["enroll", "qr", "--image", cli.folder.appendingPathComponent("absent.png").path])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1
                && missing.stderr.contains("does not exist"), "\(missing.stderr)")
    }

    @Test func severalCodesInAnImageAskForOne() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        var codes: [[[Bool]]] = []
        for payload in ["deskdays:office:hq", "deskdays:office:annex"] {
            let made = try await cli.run(["qr", "make", "--payload", payload, "--terminal"], paths: false)
            #expect(made.status == 0, "\(made.stderr)")
            codes.append(Self.modules(terminalText: made.stdout))
        }
        let both = cli.folder.appendingPathComponent("both.png")
        try Self.png(sideBySide: codes, scale: 4).write(to: both)
        let result = try await cli.run(["enroll", "qr", "--image", both.path])
        #expect(result.status == 1)
        #expect(result.stderr == "deskdays: \(both.path) holds 2 different QR codes; crop it to the one code to enroll.\n",
                "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == Self.config)
    }

    @Test func aBrokenConfigIsReportedNotEdited() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let broken = "[qr]\npayload = [\"typo\"]\n"
        try cli.writeConfig(broken)
        let png = cli.folder.appendingPathComponent("hq.png").path
        #expect(try await cli.run(["qr", "make", "--payload", "deskdays:office:hq", "--out", png], paths: false).status == 0)
        let result = try await cli.run(["enroll", "qr", "--image", png])
        #expect(result.status == 1)
        #expect(result.stderr.contains("config.toml:2:"), "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == broken)
    }

    // MARK: - An image of two codes, without an image library

    /// The light (true) and dark modules of `qr make --terminal`'s drawing,
    /// quiet zone included: each character is two rows (█ ▀ ▄ and space).
    static func modules(terminalText: String) -> [[Bool]] {
        let lines = terminalText.split(whereSeparator: \.isNewline).map(Array.init)
        let side = lines.first?.count ?? 0
        var rows: [[Bool]] = []
        for line in lines {
            rows.append(line.map { $0 == "█" || $0 == "▀" })
            rows.append(line.map { $0 == "█" || $0 == "▄" })
        }
        return Array(rows.prefix(side))
    }

    /// An 8-bit grey PNG of the codes side by side on white, `scale` pixels a
    /// module (stored deflate blocks: no compression needed).
    static func png(sideBySide codes: [[[Bool]]], scale: Int) -> Data {
        let height = (codes.map(\.count).max() ?? 0) * scale
        let width = codes.map { ($0.first?.count ?? 0) * scale }.reduce(0, +)
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for code in codes {
                let row = y / scale < code.count ? code[y / scale] : []
                for light in row { raw += Array(repeating: light ? 255 : 0, count: scale) }
                if row.isEmpty { raw += Array(repeating: 255, count: (code.first?.count ?? 0) * scale) }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += bigEndian((b << 16) | a)
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return bigEndian(UInt32(body.count)) + typed + bigEndian(~crc)
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
