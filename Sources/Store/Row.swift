internal import CSQLite

/// The current row of a ``Statement``, read by 0-based column index.
///
/// Valid only until the statement steps again: use it inside the closure that received it.
public struct Row {
    let statement: Statement

    /// How many columns the row has.
    public var count: Int { statement.columnCount }

    /// Column `index` as it is stored (`sqlite3_column_type` and `sqlite3_column_*`).
    public func value(at index: Int) -> SQLiteValue {
        let handle = statement.handle
        let i = Int32(clamping: index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            // Fetch the pointer before the length, as SQLite's documentation requires.
            guard let text = sqlite3_column_text(handle, i) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, i))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, i) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, i))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Column `index` as a `T`, strictly.
    /// - Throws: ``SQLiteError`` with code ``ResultCode/mismatch`` naming the column and both storage
    ///   classes when the stored value does not fit `T` (e.g. `NULL` read as a non-optional `String`).
    public func get<T: SQLiteColumnDecodable>(_ index: Int, as type: T.Type = T.self) throws(SQLiteError) -> T {
        guard index >= 0, index < count else {
            throw SQLiteError.misuse("column \(index) is out of range (the row has \(count))", sql: statement.sql)
        }
        let value = value(at: index)
        guard let decoded = T(sqliteValue: value) else {
            throw SQLiteError.mismatch(
                "column \(index) (\(statement.columnName(at: index))) holds \(value.storageClass), expected \(T.expectedStorageClass)",
                sql: statement.sql)
        }
        return decoded
    }
}
