@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import GRDB

/// A fresh folder under the system temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskdays-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

enum Fixtures {
    /// The committed fixture database of schema version `version`.
    static func url(version: Int) -> URL? {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)?
            .appendingPathComponent("v\(version).sqlite")
    }

    /// Copies the fixture of `version` to `path` (mode 0600, as a user's database would be).
    static func copy(version: Int, to path: String) throws {
        guard let url = url(version: version) else { throw CocoaError(.fileNoSuchFile) }
        try FileManager.default.copyItem(atPath: url.path, toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}

/// The bytes of a file, for "left exactly as it was" checks.
func contents(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// The permission bits of a file or folder.
func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Runs raw SQL on a database file through a plain connection (the test
/// plays another program or an older/newer DeskDays), then closes it so
/// everything is checkpointed into the main file.
func withRawDatabase(_ path: String, _ body: (Database) throws -> Void) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction(body)
    try queue.close()
}

/// The migrator of this build plus a test-only next version, to exercise
/// upgrades before that version exists.
func migratorWithNext(_ body: @escaping @Sendable (Database) throws -> Void) -> DatabaseMigrator {
    var migrator = AttendanceStore.migrator
    let next = AttendanceStore.schemaVersion + 1
    migrator.registerMigration("v\(next)") { db in
        try body(db)
        try db.execute(sql: "PRAGMA user_version = \(next)")
    }
    return migrator
}

/// An instant from RFC 3339 text (test input only).
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)!
}

func day(_ text: String) -> LocalDate { LocalDate(text)! }
