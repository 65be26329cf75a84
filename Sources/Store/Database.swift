import TBRFoundation
internal import CSQLite

/// One SQLite connection: the owner of a `sqlite3*`, closed in `deinit`.
///
/// A `Database` is not `Sendable`: it lives inside one actor (``DatabaseActor``), which is the only way
/// the rest of tbrd reaches it. It is nevertheless opened with `SQLITE_OPEN_FULLMUTEX` as a second line
/// of defence; the cost is an uncontended mutex per call.
///
/// Opening applies tbrd's connection policy:
/// - the file and its directory are created with owner-only modes first (see ``DatabaseFile``);
/// - `PRAGMA journal_mode=WAL`: readers never block the writer and a crash leaves the database intact;
/// - `PRAGMA foreign_keys=ON`: memberships and settings cannot point at missing rows;
/// - `sqlite3_busy_timeout`: another process holding the write lock is waited for, not failed on;
/// - `PRAGMA synchronous` from ``Options/synchronous`` (FULL by default, see there);
/// - a page cache of at most ``Options/cacheKiB`` (`PRAGMA cache_size`): SQLite's default, 2 MiB, would
///   fill as the ePSKc journal grows over the months a daemon runs; tbrd's few statements a minute touch
///   a few pages each (docs/performance.md, "Where tbrd's resident memory goes", step 10).
public final class Database {
    /// How a connection is opened.
    public struct Options: Sendable {
        /// How long to wait for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeout: Duration
        /// The durability level (`PRAGMA synchronous`).
        public var synchronous: Synchronous
        /// The most memory the page cache may take, in KiB (`PRAGMA cache_size=-N`); at least 64.
        public var cacheKiB: Int

        /// Options with a 5 s busy timeout, `synchronous=FULL` and a page cache of at most 512 KiB.
        public init(busyTimeout: Duration = .seconds(5), synchronous: Synchronous = .full, cacheKiB: Int = 512) {
            self.busyTimeout = busyTimeout
            self.synchronous = synchronous
            self.cacheKiB = cacheKiB
        }
    }

    /// `PRAGMA synchronous` in WAL mode.
    ///
    /// Both levels keep the database consistent after a crash of the process or of the machine. They
    /// differ on power loss: with `normal`, the last transactions committed before it may be rolled back.
    /// tbrd defaults to `full` because the ePSKc journal promises that an event is on disk before it is
    /// signalled: a rolled-back journal row would let a sequence number already sent to a watcher be
    /// reused for another event. Writes are rare (a few per ePSKc session), so one `fsync` per commit costs
    /// nothing noticeable.
    public enum Synchronous: String, Sendable {
        /// `synchronous=NORMAL`: the WAL is synced at checkpoints only.
        case normal = "NORMAL"
        /// `synchronous=FULL`: the WAL is synced at every commit.
        case full = "FULL"
    }

    let handle: OpaquePointer
    /// The path of the database file.
    public let path: String

    /// Opens (creating if needed) the database at `path` and applies the connection policy above.
    /// - Throws: ``SQLiteError``; `SQLITE_CANTOPEN` when the directory or the file cannot be created or
    ///   given its mode (the message says which and why), `SQLITE_NOTADB` for a file that is not a
    ///   database, or the error of the `PRAGMA` that could not be applied.
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        try DatabaseFile.prepare(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError.from(rc, db: db, sql: nil)
            sqlite3_close_v2(db)
            throw SQLiteError(
                code: error.code, extendedCode: error.extendedCode,
                message: "cannot open \(path): \(error.message)")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        try configure(options)
    }

    deinit {
        // Statements hold a strong reference to their Database, so none is left to finalize here.
        sqlite3_close_v2(handle)
    }

    private func configure(_ options: Options) throws(SQLiteError) {
        sqlite3_busy_timeout(handle, Int32(clamping: options.busyTimeout.milliseconds()))
        // Reading the header also rejects a file that is not a database, before anything is written.
        let mode: String? = try scalar("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                code: .error, message: "\(path) cannot use write-ahead logging (journal_mode is \(mode ?? "unknown"))",
                sql: "PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA foreign_keys=ON")
        let foreignKeys: Int? = try scalar("PRAGMA foreign_keys")
        guard foreignKeys == 1 else {
            throw SQLiteError(
                code: .error, message: "this SQLite library cannot enforce foreign keys", sql: "PRAGMA foreign_keys")
        }
        try execute("PRAGMA synchronous=\(options.synchronous.rawValue)")
        // PRAGMA takes no bound parameters; the value is an integer, so formatting it is safe.
        try execute("PRAGMA cache_size=-\(max(64, options.cacheKiB))")
    }

    // MARK: executing

    /// Runs one statement with `parameters` bound to its `?` placeholders, discarding any rows.
    /// - Throws: ``SQLiteError`` carrying the SQL.
    public func execute(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {}
    }

    /// Runs a script of several `;`-separated statements without parameters (`sqlite3_exec`).
    /// - Throws: ``SQLiteError`` carrying the script.
    public func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else { throw SQLiteError.from(rc, db: handle, sql: sql) }
    }

    /// Compiles one statement (`sqlite3_prepare_v2`).
    /// - Throws: ``SQLiteError`` for bad SQL, or when `sql` holds more or less than one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs a query and maps every row with `transform`.
    /// - Throws: ``SQLiteError`` from SQLite or from `transform`'s typed column reads.
    public func query<T>(
        _ sql: String, _ parameters: [SQLiteValue] = [], _ transform: (Row) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> [T] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var out: [T] = []
        while try statement.step() { out.append(try transform(statement.row)) }
        return out
    }

    /// The first column of the first row of a query, or nil when there is no row.
    /// - Throws: ``SQLiteError``, including `SQLITE_MISMATCH` when the column is not a `T`.
    public func scalar<T: SQLiteColumnDecodable>(
        _ sql: String, _ parameters: [SQLiteValue] = [], as type: T.Type = T.self
    ) throws(SQLiteError) -> T? {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        guard try statement.step() else { return nil }
        return try statement.row.get(0, as: T.self)
    }

    /// The rowid of the last successful `INSERT` on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed (`sqlite3_changes64`).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is 0).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
