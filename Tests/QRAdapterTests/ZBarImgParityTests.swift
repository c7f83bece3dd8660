import Foundation
import QR
import QRAdapter
import Testing

/// The real photographs (ZXing's test set): our zbar path alone (libpng /
/// libjpeg → luma → zbar with only QR), the second decoder, decodes at least
/// every image Debian's `zbarimg` decodes, with the same text, running
/// `zbarimg` on the same files. QRPhotoTests checks the whole decoder (ZXing,
/// then zbar) against the expected text.
struct ZBarImgParityTests {
    @Test func fixturesArePresent() {
        #expect(Support.photos.count >= 50, "Tests/Fixtures/qr holds the ZXing photos")
    }

    @Test(.enabled(if: Support.has("zbarimg"), "zbarimg not installed: apt-get install zbar-tools"))
    func decodesEverythingZbarimgDecodes() async throws {
        let photos = Support.photos
        // zbarimg per file, two at a time (it is the slow part: ImageMagick start-up).
        let theirs = try await withThrowingTaskGroup(of: (String, String).self) { group in
            var results: [String: String] = [:]
            var pending = photos.makeIterator()
            func add(_ group: inout ThrowingTaskGroup<(String, String), Error>) {
                guard let path = pending.next() else { return }
                group.addTask {
                    let result = try await Support.run("zbarimg", ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", path])
                    return (path, String(decoding: result.stdout, as: UTF8.self))
                }
            }
            add(&group)
            add(&group)
            for try await (path, text) in group {
                results[path] = text
                add(&group)
            }
            return results
        }
        let scanner = ZBarScanner()
        var theirCount = 0, ourCount = 0, ourExtra: [String] = []
        for path in photos {
            let name = path.replacingOccurrences(of: Support.fixtures.path + "/", with: "")
            let ours = try ImageFile.loadLuma(path: path)
            let payloads = scanner.scan(ours)
            // --raw prints each symbol's data followed by a newline.
            let ourText = payloads.map { $0 + "\n" }.joined()
            let theirText = theirs[path] ?? ""
            if !payloads.isEmpty { ourCount += 1 }
            if !theirText.isEmpty {
                theirCount += 1
                #expect(ourText == theirText, "\(name): zbarimg read \(theirText.debugDescription), we read \(ourText.debugDescription)")
            } else if !payloads.isEmpty {
                ourExtra.append(name)
            }
        }
        print("QR photos: \(photos.count); zbarimg decodes \(theirCount), DeskDays decodes \(ourCount)"
              + (ourExtra.isEmpty ? "" : " (also: \(ourExtra.joined(separator: ", ")))"))
        #expect(ourCount >= theirCount)
    }

    @Test func unreadableFilesAreErrorsNotCrashes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, [UInt8])] = [
            ("text.png", Array("hello".utf8)),
            ("truncated.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]),
            ("truncated.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]),
        ]
        for (name, bytes) in cases {
            let path = folder.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            #expect(throws: ImageError.self) { try ImageFile.loadLuma(path: path) }
        }
        #expect(throws: ImageError.self) { try ImageFile.loadLuma(path: folder.appendingPathComponent("absent.png").path) }
    }
}
