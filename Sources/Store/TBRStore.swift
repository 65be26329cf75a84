public import TBRFoundation

/// tbrd's state: structures, router memberships, structure settings, the policy applied to each router,
/// the routers seen, and the append-only ePSKc journal, in one SQLite database.
///
/// Every method that changes something is one `IMMEDIATE` transaction: it is all on disk when the
/// method returns, or nothing of it is (after a throw, or a crash at any point). The store shares the
/// serial executor of its ``DatabaseActor``, so calling into the database costs no extra hop.
///
/// Times are seconds since the Unix epoch from the injected clock's ``TBRClock/wallTime()``.
public actor TBRStore {
    /// The default state directory.
    public static let defaultStateDirectory = "/var/lib/tbrd"
    /// The database's file name inside the state directory.
    public static let databaseFileName = "tbrd.db"

    /// The path of the database inside `stateDirectory`.
    public static func databasePath(inStateDirectory stateDirectory: String = defaultStateDirectory) -> String {
        stateDirectory.hasSuffix("/") ? stateDirectory + databaseFileName : stateDirectory + "/" + databaseFileName
    }

    /// The database, for diagnostics (``DatabaseActor/integrityCheck()``) and tests.
    public nonisolated let database: DatabaseActor
    /// How much of the ePSKc journal is kept.
    public nonisolated let retention: JournalRetention
    let clock: any TBRClock
    let logger: Logger

    /// The database's serial queue: the store and its database run on the same executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { database.unownedExecutor }

    /// Opens the database at `path` (see ``databasePath(inStateDirectory:)``), creating it and its
    /// directory if needed, and brings its schema up to date.
    /// - Parameters:
    ///   - clock: where times come from.
    ///   - retention: how much of the ePSKc journal to keep; applied at every append and by
    ///     ``pruneEpskcJournal()``.
    ///   - options: busy timeout and durability (``Database/Synchronous``).
    ///   - logger: receives one record when the database is opened or upgraded.
    /// - Throws: ``StoreError``: `.sqlite` when the file cannot be created or opened, `.schemaTooNew`
    ///   when a newer tbrd wrote it, `.migrationFailed` when an upgrade fails (and changed nothing).
    public init(
        path: String, clock: any TBRClock = SystemClock(), retention: JournalRetention = JournalRetention(),
        options: Database.Options = Database.Options(), logger: Logger = .disabled
    ) throws(StoreError) {
        if let count = retention.maximumCount, count < 0 {
            throw .invalidArgument("the journal's maximum count must not be negative (got \(count))")
        }
        let database = try DatabaseActor(path: path, options: options, migrations: Self.migrations)
        self.database = database
        self.retention = retention
        self.clock = clock
        self.logger = logger
        if database.openedAtVersion != database.schemaVersion {
            logger.info(
                "state database schema upgraded",
                [("path", path), ("from", "\(database.openedAtVersion)"), ("to", "\(database.schemaVersion)")])
        } else {
            logger.debug("state database opened", [("path", path), ("version", "\(database.schemaVersion)")])
        }
    }

    /// The schema version of the open database.
    public nonisolated var schemaVersion: Int { database.schemaVersion }

    // MARK: transactions

    /// Runs `body` in one write transaction, with the current wall time.
    func write<T: Sendable>(_ body: @Sendable (Database, Double) throws -> T) async throws(StoreError) -> T {
        let now = clock.wallTime()
        do {
            return try await database.write { db in try body(db, now) }
        } catch {
            throw StoreError(error)
        }
    }

    /// Runs `body` in one read transaction (one consistent snapshot).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await database.read { db in try body(db) }
        } catch {
            throw StoreError(error)
        }
    }
}
