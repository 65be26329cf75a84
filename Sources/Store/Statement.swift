internal import CSQLite

/// One compiled SQL statement: the owner of a `sqlite3_stmt*`, finalized in `deinit`.
///
/// It keeps its ``Database`` alive, so the connection is never closed under it. Bind parameters with
/// ``bind(_:)``, then call ``step()`` until it returns false, reading each ``row`` in between.
public final class Statement {
    let handle: OpaquePointer
    /// The connection the statement belongs to.
    public let database: Database
    /// The SQL text, for error messages.
    public let sql: String

    /// Compiles `sql` on `database` (`sqlite3_prepare_v2`).
    /// - Throws: ``SQLiteError`` for bad SQL, or `SQLITE_MISUSE` when `sql` is empty or has several
    ///   statements (use ``Database/executeScript(_:)`` for scripts).
    init(database: Database, sql: String) throws(SQLiteError) {
        var stmt: OpaquePointer?
        var trailing = ""
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(database.handle, text, -1, &stmt, &tail)
            if let tail { trailing = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK else {
            sqlite3_finalize(stmt)
            throw SQLiteError.from(rc, db: database.handle, sql: sql)
        }
        guard let stmt else { throw SQLiteError.misuse("no SQL statement to prepare", sql: sql) }
        guard trailing.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(stmt)
            throw SQLiteError.misuse("more than one SQL statement; use executeScript", sql: sql)
        }
        self.handle = stmt
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// How many `?` parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `values` to its parameters, in order.
    /// - Throws: ``SQLiteError``; `SQLITE_MISUSE` when the number of values is not ``parameterCount``.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError.misuse("\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        reset()
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() { try bind(value, at: i + 1) }
    }

    /// Binds `value` to the 1-based parameter `index` (`sqlite3_bind_*`; text and blobs are copied).
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE` for a bad index, `SQLITE_TOOBIG` for a huge value).
    public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
        let i = Int32(clamping: index)
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, i)
        case .integer(let v):
            rc = sqlite3_bind_int64(handle, i, v)
        case .real(let v):
            rc = sqlite3_bind_double(handle, i, v)
        case .text(let v):
            let utf8 = Array(v.utf8)
            rc = utf8.withUnsafeBufferPointer { buf in
                // An empty buffer may have no base address; a nil pointer would bind NULL, not ''.
                guard let base = buf.baseAddress, !buf.isEmpty else {
                    return sqlite3_bind_text(handle, i, "", 0, tbrd_sqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                    sqlite3_bind_text64(handle, i, $0, UInt64(buf.count), tbrd_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let v):
            rc = v.withUnsafeBytes { buf in
                guard let base = buf.baseAddress, !buf.isEmpty else { return sqlite3_bind_zeroblob(handle, i, 0) }
                return sqlite3_bind_blob64(handle, i, base, UInt64(buf.count), tbrd_sqlite_transient())
            }
        }
        guard rc == SQLITE_OK else { throw SQLiteError.from(rc, db: database.handle, sql: sql) }
    }

    /// Runs the statement to its next row (`sqlite3_step`).
    /// - Returns: true when a row is available in ``row``, false when the statement is done.
    /// - Throws: ``SQLiteError`` carrying the SQL; the statement is reset so it can be reused.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let rc:
            let error = SQLiteError.from(rc, db: database.handle, sql: sql)
            reset()
            throw error
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept (`sqlite3_reset`).
    public func reset() {
        // sqlite3_reset returns the error of the last step again, already reported by step().
        _ = sqlite3_reset(handle)
    }

    /// The current row; valid until the next ``step()`` or ``reset()``.
    public var row: Row { Row(statement: self) }

    /// How many columns a row of this statement has.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the 0-based column `index` (`sqlite3_column_name`).
    public func columnName(at index: Int) -> String {
        guard let name = sqlite3_column_name(handle, Int32(clamping: index)) else { return "column \(index)" }
        return String(cString: name)
    }
}
