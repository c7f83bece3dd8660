import Foundation
import Testing

/// The real photographs (ZXing's test sets, Tests/Fixtures/qr): `deskdays qr
/// scan`, as a user runs it, prints the expected text (the K.txt beside each
/// image) for every image that Debian's `zbarimg` or `ZXingReader` decodes,
/// both run here on the same files. The Japanese set (qrcode-2) holds
/// Shift_JIS byte-mode codes that zbar alone turns into other text.
struct QRPhotoTests {
    /// `qr scan`'s PAYLOAD field back to the payload (the escapes of `shown`).
    static func unescape(_ field: Substring) -> String {
        var out = String.UnicodeScalarView(), scalars = Array(field.unicodeScalars), index = 0
        while index < scalars.count {
            guard scalars[index] == "\\", index + 1 < scalars.count else { out.append(scalars[index]); index += 1; continue }
            switch scalars[index + 1] {
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "x":
                let hex = String(String.UnicodeScalarView(scalars[(index + 2)..<min(index + 4, scalars.count)]))
                out.append(Unicode.Scalar(UInt8(hex, radix: 16) ?? 0))
                index += 2
            default: out.append(scalars[index + 1])
            }
            index += 2
        }
        return String(out)
    }

    /// The photos each tool decodes (any QR code found), by path.
    static func zbarimgDecodes(_ photos: [String]) async throws -> Set<String> {
        var decoded: Set<String> = []
        for path in photos {
            let result = try await Support.run("zbarimg", ["--nodbus", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", path])
            if !result.stdout.isEmpty { decoded.insert(path) }
        }
        return decoded
    }

    static func zxingReaderDecodes(_ photos: [String]) async throws -> Set<String> {
        // One line a symbol: `PATH FORMAT "TEXT"`, or `PATH None` (-1); the fixture paths hold no spaces.
        let result = try await Support.run("ZXingReader", ["-format", "QRCode", "-1"] + photos)
        var decoded: Set<String> = []
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            if fields.count >= 2, fields[1] == "QRCode" { decoded.insert(String(fields[0])) }
        }
        return decoded
    }

    @Test(.enabled(if: Support.binary != nil, "the deskdays binary was not found: run `swift build` first or set DESKDAYS_BIN"))
    func scanPrintsTheExpectedTextForEveryImageEitherToolDecodes() async throws {
        let photos = Support.photos
        #expect(photos.count >= 90, "Tests/Fixtures/qr holds the ZXing photos")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.toml").path
        try "[qr]\n".write(toFile: config, atomically: true, encoding: .utf8)

        let scan = try await Support.run(try #require(Support.binary), ["qr", "scan", "--config", config] + photos,
                                         environment: ["HOME": folder.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        var ours: [String: [String]] = [:]
        for line in String(decoding: scan.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 2 || fields.count == 3, "one line a code: \(line)")
            ours[String(fields[0]), default: []] += fields.count == 3 ? [Self.unescape(fields[1])] : []
        }
        #expect(Set(ours.keys) == Set(photos), "a line for every file")

        var baselines: [(String, Set<String>)] = []
        if Support.has("zbarimg") { baselines.append(("zbarimg", try await Self.zbarimgDecodes(photos))) } else {
            print("zbarimg not installed (apt-get install zbar-tools): compared with the expected text only")
        }
        if Support.has("ZXingReader") { baselines.append(("ZXingReader", try await Self.zxingReaderDecodes(photos))) } else {
            print("ZXingReader not installed (apt-get install zxing-cpp-tools): compared with the expected text only")
        }
        let either = baselines.reduce(into: Set<String>()) { $0.formUnion($1.1) }
        var right = 0
        for path in photos {
            let expected = try String(contentsOfFile: (path as NSString).deletingPathExtension + ".txt", encoding: .utf8)
            let read = ours[path] ?? []
            // An image may hold two codes (qrcode-2/16: one inside the other); its K.txt is one of them.
            if read.contains(expected) { right += 1 }
            if either.contains(path) {
                #expect(read.contains(expected), "\(path): expected \(expected.debugDescription), qr scan read \(read.debugDescription)")
            }
        }
        let counts = baselines.map { "\($0.0) \($0.1.count)" } + ["either \(either.count)", "deskdays qr scan \(right)"]
        print("QR photos: \(photos.count); decoded by " + counts.dropLast().joined(separator: ", ") + "; \(counts.last!) with the expected text")
        #expect(right >= either.count)
        // Without the tools, what this build is known to read (88 of 92: the other 4 defeat both libraries).
        #expect(right >= 88)
    }
}
