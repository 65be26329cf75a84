/// One step of a schema: version `n` turns a database at version `n - 1` into one at version `n`.
///
/// Migrations are applied in order, each in its own `IMMEDIATE` transaction that also records its
/// version in `PRAGMA user_version`, so a crash between two leaves the database at the last complete
/// version, and the next open resumes from there. Released migrations are never edited: a change to the
/// schema is a new migration.
public struct SchemaMigration: Sendable {
    /// The schema version this migration produces (1, 2, 3, …).
    public let version: Int
    /// What it does, for error messages ("structures, routers and the ePSKc journal").
    public let summary: String
    let body: @Sendable (Database) throws(SQLiteError) -> Void

    /// A migration running `body` on the database.
    public init(version: Int, _ summary: String, _ body: @escaping @Sendable (Database) throws(SQLiteError) -> Void) {
        self.version = version
        self.summary = summary
        self.body = body
    }

    /// A migration running a script of `;`-separated statements.
    public init(version: Int, _ summary: String, sql: String) {
        self.init(version: version, summary) { (db: Database) throws(SQLiteError) in try db.executeScript(sql) }
    }
}

extension Database {
    /// Brings the schema up to the last of `migrations` (versions 1, 2, …, n, in order, none missing).
    ///
    /// The version is read again inside each migration's transaction, under the write lock, so two
    /// processes opening the same new database cannot apply a migration twice.
    /// - Returns: the version found and the version now recorded.
    /// - Throws: ``StoreError/schemaTooNew(path:found:supported:)`` when the database was written by a
    ///   newer tbrd (nothing is changed), ``StoreError/migrationFailed(path:version:summary:underlying:)``
    ///   when a migration fails (its transaction is rolled back), ``StoreError/sqlite(_:)`` otherwise.
    @discardableResult
    public func migrate(_ migrations: [SchemaMigration]) throws(StoreError) -> (from: Int, to: Int) {
        precondition(
            migrations.map(\.version) == Array(0..<migrations.count).map { $0 + 1 },
            "migrations must be numbered 1, 2, 3, … in order")
        let supported = migrations.count
        let found: Int
        do { found = try userVersion() } catch { throw .sqlite(error) }
        guard found <= supported else { throw .schemaTooNew(path: path, found: found, supported: supported) }
        for migration in migrations where migration.version > found {
            do {
                let current = try transaction { () throws -> Int in
                    let current = try userVersion()
                    guard current == migration.version - 1 else { return current }  // another process did it
                    try migration.body(self)
                    try setUserVersion(migration.version)
                    return migration.version
                }
                guard current <= supported else {
                    throw StoreError.schemaTooNew(path: path, found: current, supported: supported)
                }
            } catch let error as StoreError {
                throw error
            } catch let error as SQLiteError {
                throw .migrationFailed(path: path, version: migration.version, summary: migration.summary, underlying: error)
            } catch {
                throw .sqlite(SQLiteError(code: .error, message: "\(error)"))
            }
        }
        return (found, supported)
    }
}
