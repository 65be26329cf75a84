import TBRFoundation

/// One SQLite value, in one of its five storage classes. Statements bind these and rows read them.
public enum SQLiteValue: Hashable, Sendable, CustomStringConvertible {
    /// `NULL`.
    case null
    /// A 64-bit signed integer (`INTEGER`).
    case integer(Int64)
    /// An IEEE 754 double (`REAL`).
    case real(Double)
    /// UTF-8 text (`TEXT`).
    case text(String)
    /// Bytes (`BLOB`).
    case blob([UInt8])

    /// `value` as `TEXT`, or `NULL` when it is nil.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    /// `value` as `INTEGER`, or `NULL` when it is nil.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    /// `value` as `INTEGER`, or `NULL` when it is nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// `value` as `REAL`, or `NULL` when it is nil.
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    /// `value` as `INTEGER` 0 or 1, or `NULL` when it is nil.
    public init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }
    /// `value` as `BLOB`, or `NULL` when it is nil.
    public init(_ value: [UInt8]?) { self = value.map { .blob($0) } ?? .null }

    /// The storage class name: `NULL`, `INTEGER`, `REAL`, `TEXT` or `BLOB`.
    public var storageClass: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// The value as SQL would spell it (`NULL`, `42`, `'text'`, `x'00ff'`).
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): "'\(v)'"
        case .blob(let v): "x'\(Hex.encode(v))'"
        }
    }
}

/// A Swift type read from a result column, strictly: a column of another storage class is a
/// ``SQLiteError`` with code ``ResultCode/mismatch``, never a silent conversion.
public protocol SQLiteColumnDecodable {
    /// Decodes `value`, or returns nil when its storage class does not fit this type.
    init?(sqliteValue value: SQLiteValue)
    /// The storage class expected, for error messages.
    static var expectedStorageClass: String { get }
}

extension Int64: SQLiteColumnDecodable {
    /// An `INTEGER` column.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let v) = value else { return nil }
        self = v
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "INTEGER" }
}

extension Int: SQLiteColumnDecodable {
    /// An `INTEGER` column.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let v) = value, let i = Int(exactly: v) else { return nil }
        self = i
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "INTEGER" }
}

extension Bool: SQLiteColumnDecodable {
    /// An `INTEGER` column holding 0 or 1.
    public init?(sqliteValue value: SQLiteValue) {
        switch value {
        case .integer(0): self = false
        case .integer(1): self = true
        default: return nil
        }
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "INTEGER (0 or 1)" }
}

extension Double: SQLiteColumnDecodable {
    /// A `REAL` column (an `INTEGER` is widened: SQLite stores integral reals as integers in some cases).
    public init?(sqliteValue value: SQLiteValue) {
        switch value {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "REAL" }
}

extension String: SQLiteColumnDecodable {
    /// A `TEXT` column.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .text(let v) = value else { return nil }
        self = v
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "TEXT" }
}

extension Array: SQLiteColumnDecodable where Element == UInt8 {
    /// A `BLOB` column.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .blob(let v) = value else { return nil }
        self = v
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "BLOB" }
}

extension Optional: SQLiteColumnDecodable where Wrapped: SQLiteColumnDecodable {
    /// `NULL` as nil, otherwise the wrapped type's storage class.
    public init?(sqliteValue value: SQLiteValue) {
        if case .null = value {
            self = .none
        } else if let v = Wrapped(sqliteValue: value) {
            self = .some(v)
        } else {
            return nil
        }
    }
    /// The storage class, for error messages.
    public static var expectedStorageClass: String { "\(Wrapped.expectedStorageClass) or NULL" }
}
