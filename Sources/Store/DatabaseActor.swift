import TBRFoundation

/// A ``Database`` behind an actor: the only way async code reaches a connection.
///
/// The actor runs on a serial Dispatch queue of its own (SQLite blocks on disk and on locks), and every
/// closure runs there with the connection, synchronously, so a ``write(_:)`` is one transaction that
/// nothing else on the connection can interleave with.
public actor DatabaseActor {
    private let executor: DispatchQueueExecutor
    private let database: Database
    /// The path of the database file.
    public nonisolated let path: String
    /// The schema version found when opening, before migrations ran (0 for a new database).
    public nonisolated let openedAtVersion: Int
    /// The schema version after migrations.
    public nonisolated let schemaVersion: Int

    /// The actor's serial queue (shared by ``TBRStore``).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens `path` (creating the file with mode 0600, and missing directories with mode 0700) and
    /// applies `migrations`, synchronously on the caller's thread (it is done once, at startup).
    /// - Throws: ``StoreError``: `.sqlite` when it cannot be opened, `.schemaTooNew` when a newer tbrd
    ///   wrote it, `.migrationFailed` when a migration fails.
    public init(path: String, options: Database.Options = Database.Options(), migrations: [SchemaMigration]) throws(StoreError) {
        let database: Database
        do { database = try Database(path: path, options: options) } catch { throw .sqlite(error) }
        let versions = try database.migrate(migrations)
        self.executor = DispatchQueueExecutor(label: "tbrd.store")
        self.database = database
        self.path = path
        self.openedAtVersion = versions.from
        self.schemaVersion = versions.to
    }

    /// Runs `body` in one `IMMEDIATE` transaction: all of its changes are committed, or none when it
    /// throws.
    /// - Throws: what `body` threw, or ``SQLiteError``.
    public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try database.transaction(.immediate) { try body(database) }
    }

    /// Runs `body` in one `DEFERRED` transaction, so all of its reads see one snapshot.
    /// - Throws: what `body` threw, or ``SQLiteError``.
    public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try database.transaction(.deferred) { try body(database) }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database.
    /// - Throws: ``SQLiteError``.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try database.integrityCheck()
    }
}
