extension Array: DBusRepresentable where Element: DBusRepresentable {
    /// `a<element>`; `[UInt8]` is `ay`, marshalled as one block.
    public static var dbusType: SignatureType { .array(Element.dbusType) }

    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        switch v {
        case .bytes(let b) where Element.self == UInt8.self:
            self = b as! [Element]
        case .bytes(let b):
            self = []
            reserveCapacity(b.count)
            for x in b { append(try Element(dbusValue: .byte(x))) }
        case .array(let e, let items) where e == Element.dbusType:
            self = []
            reserveCapacity(items.count)
            for item in items { append(try Element(dbusValue: item)) }
        default:
            throw .mismatch(Self.dbusType, v)
        }
    }

    public var dbusValue: DBusValue {
        if Element.self == UInt8.self { return .bytes(self as! [UInt8]) }
        return .array(element: Element.dbusType, map(\.dbusValue))
    }
}

extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    /// `a{<key><value>}`. Entry order is not kept; use ``DBusValue/dictionary(key:value:_:)`` when it matters.
    public static var dbusType: SignatureType { .dictionary(key: Key.dbusType, value: Value.dbusType) }

    public init(dbusValue v: DBusValue) throws(DBusValueError) {
        guard case .dictionary(let k, let val, let entries) = v, k == Key.dbusType, val == Value.dbusType else {
            throw .mismatch(Self.dbusType, v)
        }
        self = [:]
        reserveCapacity(entries.count)
        for e in entries { self[try Key(dbusValue: e.key)] = try Value(dbusValue: e.value) }
    }

    public var dbusValue: DBusValue {
        .dictionary(
            key: Key.dbusType, value: Value.dbusType,
            map { DBusValue.DictEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }
}

/// Reads the fields of a received struct in order, with typed conversions:
/// `var f = try StructReader(value, fieldCount: 2); let a: String = try f.next(); let b: UInt16 = try f.next()`.
public struct StructReader {
    private let fields: [DBusValue]
    private var index = 0

    /// A reader over `value`, which must be a struct of exactly `fieldCount` fields (nil: any count).
    public init(_ value: DBusValue, fieldCount: Int? = nil) throws(DBusValueError) {
        guard case .structure(let fields) = value.unwrappingVariant else {
            throw .typeMismatch(expected: "(...)", found: value.type.text)
        }
        if let fieldCount, fields.count != fieldCount {
            throw .invalid("expected a struct of \(fieldCount) fields, found \(fields.count)")
        }
        self.fields = fields
    }

    /// The next field as `T`.
    public mutating func next<T: DBusRepresentable>(_: T.Type = T.self) throws(DBusValueError) -> T {
        guard index < fields.count else { throw .invalid("struct has only \(fields.count) fields") }
        defer { index += 1 }
        return try T(dbusValue: fields[index])
    }
}
