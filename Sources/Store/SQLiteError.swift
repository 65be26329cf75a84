internal import CSQLite

/// A failure reported by SQLite (or by this wrapper while reading a result), with the context needed to
/// understand it: the primary and extended result codes, SQLite's message and the SQL that was running.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …): the low 8 bits of ``extendedCode``.
    public var code: ResultCode
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`, …).
    public var extendedCode: Int32
    /// The message from `sqlite3_errmsg` (or this wrapper's own sentence).
    public var message: String
    /// The SQL statement that failed, when there was one.
    public var sql: String?

    /// An error with the given codes, message and SQL.
    public init(code: ResultCode, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code.rawValue
        self.message = message
        self.sql = sql
    }

    /// One sentence: the codes, the message and the SQL.
    public var description: String {
        var text = "SQLite error \(code) (extended code \(extendedCode)): \(message)"
        if let sql { text += " [while running: \(sql)]" }
        return text
    }

    /// Whether a constraint (UNIQUE, FOREIGN KEY, CHECK, NOT NULL, PRIMARY KEY) refused the change.
    public var isConstraintViolation: Bool { code == .constraint }

    /// The error SQLite reports on `db` for the result `rc`, while running `sql`.
    ///
    /// Wraps `sqlite3_extended_errcode` and `sqlite3_errmsg`; when the handle's last error is not `rc`
    /// (e.g. after `sqlite3_finalize`), falls back to `sqlite3_errstr(rc)`.
    static func from(_ rc: Int32, db: OpaquePointer?, sql: String?) -> SQLiteError {
        var extended = rc
        var message = String(cString: sqlite3_errstr(rc))
        if let db, sqlite3_errcode(db) & 0xff == rc & 0xff {
            extended = sqlite3_extended_errcode(db)
            message = String(cString: sqlite3_errmsg(db))
        }
        return SQLiteError(code: ResultCode(rawValue: extended & 0xff), extendedCode: extended, message: message, sql: sql)
    }

    /// A type mismatch found while reading column `index` of a row.
    static func mismatch(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(code: .mismatch, message: message, sql: sql)
    }

    /// A misuse of this wrapper (a programmer error surfaced as an error rather than a crash).
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: .misuse, message: message, sql: sql)
    }
}

/// A primary SQLite result code (the low 8 bits of an extended code). Names follow `SQLITE_*`.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code.
    public let rawValue: Int32
    /// The code `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_ERROR`: a generic error (bad SQL, missing table, …).
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_BUSY`: another connection holds a lock and the busy timeout expired.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict within this connection.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_READONLY`: the database cannot be written.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file cannot be opened.
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint refused the change.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a value of the wrong type.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    /// The `SQLITE_*` name and number, e.g. `SQLITE_BUSY (5)`.
    public var description: String {
        let name: String? = switch self {
        case .error: "SQLITE_ERROR"
        case .busy: "SQLITE_BUSY"
        case .locked: "SQLITE_LOCKED"
        case .readOnly: "SQLITE_READONLY"
        case .ioError: "SQLITE_IOERR"
        case .corrupt: "SQLITE_CORRUPT"
        case .full: "SQLITE_FULL"
        case .cantOpen: "SQLITE_CANTOPEN"
        case .constraint: "SQLITE_CONSTRAINT"
        case .mismatch: "SQLITE_MISMATCH"
        case .misuse: "SQLITE_MISUSE"
        case .notADatabase: "SQLITE_NOTADB"
        default: nil
        }
        return name.map { "\($0) (\(rawValue))" } ?? "\(rawValue)"
    }
}
