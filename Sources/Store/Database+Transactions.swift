/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable {
    /// `BEGIN DEFERRED`: locks are taken on first use; for reads that want one consistent snapshot.
    case deferred = "DEFERRED"
    /// `BEGIN IMMEDIATE`: the write lock is taken at once; for every change.
    case immediate = "IMMEDIATE"
}

extension Database {
    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT`, or `ROLLBACK` when `body` throws (or when
    /// the commit fails), so either all of its changes are kept or none is.
    ///
    /// The default, `IMMEDIATE`, takes the write lock at once (waiting up to the busy timeout), so a
    /// transaction that read something cannot fail later with `SQLITE_BUSY` because another process
    /// wrote in between.
    /// - Throws: what `body` threw, or ``SQLiteError`` from `BEGIN`/`COMMIT`; a nested call is a
    ///   `SQLITE_MISUSE` error (the outer transaction is left to its owner).
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw SQLiteError.misuse("a transaction is already open on \(path)", sql: "BEGIN \(kind.rawValue)")
        }
        try execute("BEGIN \(kind.rawValue)")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            rollBackIfNeeded()
            throw error
        }
    }

    /// Rolls back the open transaction, if SQLite has not already done so (some errors, e.g.
    /// `SQLITE_FULL`, roll back by themselves).
    private func rollBackIfNeeded() {
        guard isInTransaction else { return }
        // A failing ROLLBACK leaves nothing better to do: SQLite rolls back when the connection closes.
        try? execute("ROLLBACK")
    }

    /// `PRAGMA user_version`: the schema version recorded in the database header.
    /// - Throws: ``SQLiteError``.
    public func userVersion() throws(SQLiteError) -> Int {
        try scalar("PRAGMA user_version", as: Int.self) ?? 0
    }

    /// Sets `PRAGMA user_version` (part of the open transaction, if any).
    /// - Throws: ``SQLiteError``.
    public func setUserVersion(_ version: Int) throws(SQLiteError) {
        // PRAGMA takes no bound parameters; `version` is an integer, so formatting it is safe.
        try execute("PRAGMA user_version=\(version)")
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, else SQLite's list of problems.
    /// - Throws: ``SQLiteError``.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try query("PRAGMA integrity_check") { row throws(SQLiteError) in try row.get(0, as: String.self) }
    }
}
