@testable import DeskDaysMemo
import Foundation
import Testing

/// The byte- and file-level rules of remembered answers (end to end, with
/// the real commands, in CLITests/OutputMemoTests).
@Suite struct AnswerMemoTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "answer-memo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String = "x") throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Sets a file's modification time (seconds and nanoseconds since 1970).
    func setModified(_ path: String, seconds: Int, nanoseconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    @Test func fingerprintsNameFilesAndTheirAbsence() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(AnswerMemo.fingerprint(folder + "/missing") == "-")
        #expect(AnswerMemo.fingerprint("/dev/null/below-a-file") == "-")
        let plain = try file("db.sqlite")
        #expect(AnswerMemo.fingerprint(plain)?.split(separator: ":").count == 5)
        // A -wal counts by size and modification time; an empty one as absent.
        let wal = try file("db.sqlite-wal", "")
        #expect(AnswerMemo.fingerprint(wal) == "-")
        try "frames".write(toFile: wal, atomically: false, encoding: .utf8)
        #expect(AnswerMemo.fingerprint(wal)?.hasPrefix("6:") == true)
        // Any write moves the fingerprint, even one that keeps the size.
        let before = AnswerMemo.fingerprint(plain)
        try "y".write(toFile: plain, atomically: false, encoding: .utf8)
        #expect(AnswerMemo.fingerprint(plain) != before)
    }

    @Test func recentChangesAreTooFreshToRemember() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try file("config.toml")
        #expect(AnswerMemo.changedRecently(plain, now: now()))
        // An old modification time does not hide a fresh status change.
        setModified(plain, seconds: now().tv_sec - 3600, nanoseconds: 5)
        #expect(AnswerMemo.changedRecently(plain, now: now()))
        // The -wal counts by modification time only.
        let wal = try file("db.sqlite-wal", "frames")
        setModified(wal, seconds: now().tv_sec - 1, nanoseconds: 1)
        #expect(!AnswerMemo.changedRecently(wal, now: now()), "a second is past 50 ms")
        // A whole-second stamp may be a coarse file system's: two seconds apply.
        setModified(wal, seconds: now().tv_sec - 1, nanoseconds: 0)
        #expect(AnswerMemo.changedRecently(wal, now: now()))
        setModified(wal, seconds: now().tv_sec - 3, nanoseconds: 0)
        #expect(!AnswerMemo.changedRecently(wal, now: now()))
        // A time stamp from the future is never old enough.
        setModified(wal, seconds: now().tv_sec + 3600, nanoseconds: 1)
        #expect(AnswerMemo.changedRecently(wal, now: now()))
        #expect(!AnswerMemo.changedRecently(folder + "/missing", now: now()))
    }

    @Test func pruningKeepsTheNewestAnswers() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = now().tv_sec - 10_000
        for index in 0..<(AnswerMemo.limit + 8) {
            setModified(try file(String(format: "%016x", index)), seconds: base + index, nanoseconds: 0)
        }
        _ = try file("0000000000000099.123.tmp")
        AnswerMemo.prune(folder)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left.count == AnswerMemo.limit)
        #expect(left.first == String(format: "%016x", 8), "the eight oldest are gone")
        #expect(!left.contains { $0.hasSuffix(".tmp") })
    }

    @Test func foldersArePrivateAndFilesMustBeOwnAndTight() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let nested = folder + "/cache/deskdays/answers"
        #expect(CacheFile.makeFolders(nested))
        for path in [folder + "/cache", folder + "/cache/deskdays", nested] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
        let memo = try file("memo", "request\0answer")
        chmod(memo, 0o600)
        #expect(AnswerMemo.readOwnFile(memo) == Array("request\0answer".utf8))
        chmod(memo, 0o620)
        #expect(AnswerMemo.readOwnFile(memo) == nil, "writable by the group")
        chmod(memo, 0o600)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: memo)
        #expect(AnswerMemo.readOwnFile(folder + "/link") == nil, "a symbolic link")
    }

    @Test func fieldsEndAtNulAndTheAnswerIsTheRest() {
        var fields = AnswerMemo.Fields(Array("skip\0one\0\0three\0the answer\n".utf8), from: 5)
        #expect(fields.next() == "one")
        #expect(fields.next() == "")
        #expect(fields.next() == "three")
        #expect(fields.rest().map { String(decoding: $0, as: UTF8.self) } == "the answer\n")
        var short = AnswerMemo.Fields(Array("no end".utf8), from: 0)
        #expect(short.next() == nil)
    }

    /// The same question in another environment order is the same request;
    /// another argument or folder is another.
    @Test func requestsAreExactButOrderFree() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let identity = try file("deskdays-cli")
        let one = try #require(AnswerMemo.request(["deskdays", "status"], identity: identity))
        #expect(AnswerMemo.request(["deskdays", "status"], identity: identity) == one)
        #expect(AnswerMemo.request(["other-name", "status"], identity: identity) == one, "argv[0] is not part of it")
        #expect(AnswerMemo.request(["deskdays", "status", "--format", "json"], identity: identity) != one)
        #expect(AnswerMemo.request(["deskdays", "status"], identity: folder + "/missing") == nil)
        #expect(one.starts(with: Array("deskdays-answer 1\0".utf8)))
        #expect(one.suffix(2) == [0, 0], "an empty field ends the request")
    }

    /// An answer is stored only for inputs that stayed as they were read:
    /// not changed while it was computed, nor just before the command started.
    @Test func onlyAnswersFromSettledInputsAreStored() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let identity = try file("deskdays-cli")
        let config = try file("config.toml"), database = try file("db.sqlite")
        let answers = folder + "/answers"
        func stored() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: answers)) ?? []).count }
        func store(_ inputs: AnswerMemo.Inputs, _ command: String) {
            AnswerMemo.store(Array("answer\n".utf8), arguments: ["deskdays", command], identity: identity,
                             day: nil, inputs: inputs, in: answers)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let files = [config, database, database + "-wal", folder + "/holidays.ics"]
        store(AnswerMemo.Inputs(files: files, started: .now()), "status")
        #expect(stored() == 1, "settled inputs, an absent -wal and calendar")

        // Changed while the answer was computed: not stored.
        let during = AnswerMemo.Inputs(files: files, started: .now())
        try "new".write(toFile: database, atomically: false, encoding: .utf8)
        store(during, "report")
        #expect(stored() == 1)

        // Changed just before the command started: not stored either.
        store(AnswerMemo.Inputs(files: files, started: .now()), "report")
        #expect(stored() == 1)

        // Only status and report are remembered.
        Thread.sleep(forTimeInterval: 0.2)
        store(AnswerMemo.Inputs(files: files, started: .now()), "checkin")
        #expect(stored() == 1)
        store(AnswerMemo.Inputs(files: files, started: .now()), "report")
        #expect(stored() == 2)
    }
}
