/// A JSON value that keeps what a JSON peer written in Python keeps (RFC 8259, as `orjson` reads and
/// writes it): integers exact to 64 bits, signed or unsigned (a compressed fabric ID passes 2⁶³), kept
/// apart from floats (`5` is not `5.0`), and object members in their order.
///
/// Read with ``init(parsing:)``, write with ``serialized`` (compact) or ``indented`` (two spaces, as
/// python-matter-server sends its messages); literals build values in code:
/// ```swift
/// let message: JSON = ["message_id": "1", "result": ["node_id": 5, "available": true]]
/// ```
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case int(Int64)
    /// An integer above `Int64.max` that fits in `UInt64`.
    case uint(UInt64)
    /// A number written with a fraction or an exponent, or an integer too large for 64 bits.
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// The member `key` of an object; nil for anything else or a missing key.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { o[key] } else { nil }
    }

    /// The integer, when the value is an integer (not a float) that fits.
    public var int64: Int64? {
        switch self {
        case .int(let i): i
        case .uint(let u): Int64(exactly: u)
        default: nil
        }
    }

    /// The integer, when the value is a non-negative integer (not a float) that fits.
    public var uint64: UInt64? {
        switch self {
        case .int(let i): UInt64(exactly: i)
        case .uint(let u): u
        default: nil
        }
    }

    /// The string, when it is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }

    /// The Boolean, when it is one.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The elements, when it is an array.
    public var array: [JSON]? { if case .array(let a) = self { a } else { nil } }

    /// The members, when it is an object.
    public var object: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// Whether it is `null`.
    public var isNull: Bool { self == .null }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}

extension JSON {
    /// An integer of any width, as `.int` when it fits, else `.uint`.
    public init(_ value: some BinaryInteger) {
        if let i = Int64(exactly: value) { self = .int(i) } else { self = .uint(UInt64(truncatingIfNeeded: value)) }
    }
}

/// The members of a JSON object, in order; a key appears once (setting an existing key keeps its
/// place, as a Python `dict` does).
public struct JSONObject: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSON] = [:]

    /// An empty object.
    public init() {}

    /// The members given, in order (a repeated key keeps its first place and its last value).
    public init(_ members: some Sequence<(String, JSON)>) {
        for (key, value) in members { self[key] = value }
    }

    /// The members of a literal, in the order written.
    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }

    /// The value of `key`; setting nil removes it.
    public subscript(key: String) -> JSON? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// How many members.
    public var count: Int { keys.count }

    /// Whether it has no members.
    public var isEmpty: Bool { keys.isEmpty }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSON)> {
        keys.lazy.map { (key: $0, value: values[$0]!) }.makeIterator()
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.keys == b.keys && a.values == b.values }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        for key in keys { hasher.combine(values[key]) }
    }
}
