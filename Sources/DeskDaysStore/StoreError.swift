import Localization
import DeskDaysCore
import Foundation
import GRDB

/// Why the store refused a database or could not complete an operation.
///
/// Refusals to touch data (exit code 2) are the cases where going on could
/// lose the user's history: a file from a newer DeskDays, a file that is not
/// ours, a failed migration, a damaged file. The others (exit code 1) are
/// conditions the user can fix and retry. `description` is one sentence that
/// names the problem and the fix, ready for stderr.
public enum StoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file is not SQLite, or is SQLite holding another program's tables.
    case notADatabase(path: String)
    /// The file records a migration this build does not know, or a higher `user_version`.
    case newerVersion(path: String, detail: String)
    /// A migration failed and was rolled back.
    case migrationFailed(path: String, detail: String)
    /// `PRAGMA quick_check` (or SQLite itself) found damage.
    case corrupt(path: String, detail: String)
    /// The database's write-ahead log is damaged: opening would drop history in it.
    case damagedLog(path: String, detail: String)
    /// The file or its folder cannot be written (permissions, a read-only mount):
    /// a writer opened on it would lose every write.
    case readOnly(path: String, detail: String)
    /// Another connection held the write lock for longer than the busy timeout.
    case locked(path: String)
    /// The file or its folder cannot be created or opened (permissions, a missing mount).
    case cannotOpen(path: String, detail: String)
    /// A read or write failed after the database was open (disk full, I/O error).
    case io(path: String, detail: String)
    /// The file at the path is no longer the one open (replaced, renamed or
    /// deleted under this process): nothing was written into the old one.
    case replaced(path: String)
    /// The write's request was carried out already by its other writer
    /// (`WriteRequest`): nothing was written.
    case alreadyDone(path: String)

    /// 2 for a refusal to touch data, 1 for a condition the user can fix and retry (docs/cli.md).
    public var exitCode: Int32 {
        switch self {
        case .notADatabase, .newerVersion, .migrationFailed, .corrupt, .damagedLog, .readOnly: return 2
        case .locked, .cannotOpen, .io, .replaced, .alreadyDone: return 1
        }
    }

    public var description: String {
        switch self {
        case let .notADatabase(path):
            return tr("The file \(path) is not a DeskDays database and was left untouched; point --database at your DeskDays database or at a new file.")
        case let .newerVersion(path, detail):
            return tr("The database \(path) was written by a newer DeskDays (\(detail)); this build knows up to schema v\(AttendanceStore.schemaVersion) — upgrade DeskDays or point --database at another file.")
        case let .migrationFailed(path, detail):
            return tr("Upgrading the database \(path) failed and was rolled back (\(detail)); keep using the previous DeskDays version and report this bug (the backup-v* copy beside the file holds the data as it was).")
        case let .corrupt(path, detail):
            return tr("The database \(path) is damaged (\(detail)); restore it from a copy (such as a backup-v* file beside it) or point --database at another file.")
        case let .damagedLog(path, detail):
            return tr("The database's write-ahead log \(path)-wal is damaged (\(detail)), so opening it would lose history; both files were left untouched — copy \(path) and \(path)-wal somewhere safe, then salvage with `sqlite3 COPY .recover | sqlite3 recovered.sqlite` and point --database at recovered.sqlite.")
        case let .readOnly(path, detail):
            return tr("The database \(path) cannot be written (\(detail)), so nothing could be recorded and it was left untouched; make it and its folder writable (or remount the file system read-write), or point --database elsewhere.")
        case let .locked(path):
            return tr("The database \(path) is locked by another program writing to it; wait for it to finish (or stop the other deskdays process) and try again.")
        case let .cannotOpen(path, detail):
            return tr("The database \(path) cannot be opened (\(detail)); check that you may create and write it and its folder, or point --database elsewhere.")
        case let .io(path, detail):
            return tr("Reading or writing the database \(path) failed (\(detail)); check free disk space and permissions, then try again.")
        case let .alreadyDone(path):
            return tr("This request was carried out already (by the agent, or by the command that asked for it when the agent was slow to answer); nothing more was written to \(path).")
        case let .replaced(path):
            return tr("The database \(path) was replaced or removed while it was open, so nothing was written into the old file; run the command again (a running agent restarts to open the new file).")
        }
    }
}

extension StoreError {
    /// Classifies an SQLite error met while reading or writing an open database.
    static func from(_ error: Error, path: String) -> StoreError {
        if let storeError = error as? StoreError { return storeError }
        guard let dbError = error as? DatabaseError else {
            return .io(path: path, detail: String(describing: error))
        }
        switch dbError.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt(path: path, detail: dbError.plainMessage)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .cannotOpen(path: path, detail: dbError.plainMessage)
        default: return .io(path: path, detail: dbError.plainMessage)
        }
    }
}

extension DatabaseError {
    /// SQLite's message without the statement text, so no value can reach a message.
    var plainMessage: String { message ?? tr("SQLite error \(extendedResultCode.rawValue)") }
}
