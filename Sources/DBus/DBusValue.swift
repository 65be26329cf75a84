/// One D-Bus value of any type the specification allows (unix fds excepted: tbrd never passes them).
///
/// Containers carry their element signature so that empty arrays and dicts still know their type.
/// `ay` is ``bytes(_:)``, a flat `[UInt8]` marshalled in one call without per-element boxing; decoding
/// always produces `.bytes` for `ay`.
public indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// `ay`.
    case bytes([UInt8])
    /// `a<element>` for any element type but dict entries.
    case array(element: SignatureType, [DBusValue])
    /// `a{<key><value>}`; entries keep their order.
    case dictionary(key: SignatureType, value: SignatureType, [DictEntry])
    /// `(…)`, at least one field.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// One `{key, value}` entry of a dict.
    public struct DictEntry: Hashable, Sendable {
        public var key: DBusValue
        public var value: DBusValue
        public init(key: DBusValue, value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The complete type of this value.
    public var type: SignatureType {
        switch self {
        case .byte: .byte
        case .bool: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .bytes: .array(.byte)
        case .array(let e, _): .array(e)
        case .dictionary(let k, let v, _): .dictionary(key: k, value: v)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// The signature of this value's type.
    public var signature: Signature { Signature([type]) }

    /// The value inside a variant, or `self` if it is not one.
    public var unwrappingVariant: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappingVariant }
        return self
    }

    /// Checks that containers hold what their signatures say, recursively; the encoder calls this so a
    /// mistyped value is refused with a clear error before anything is sent.
    public func validate() throws(DBusValueError) {
        switch self {
        case .array(let element, let items):
            for item in items {
                guard item.type == element else {
                    throw .typeMismatch(expected: element.text, found: item.type.text)
                }
                try item.validate()
            }
        case .dictionary(let k, let v, let entries):
            guard k.isBasic else { throw .invalid("dict key type \(k.text) is not basic") }
            for e in entries {
                guard e.key.type == k else { throw .typeMismatch(expected: k.text, found: e.key.type.text) }
                guard e.value.type == v else { throw .typeMismatch(expected: v.text, found: e.value.type.text) }
                try e.value.validate()
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalid("a struct needs at least one field") }
            for f in fields { try f.validate() }
        case .variant(let inner):
            try inner.validate()
        default:
            break
        }
    }
}

/// A value that does not have the type or shape the caller expected.
public enum DBusValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Expected one signature, found another.
    case typeMismatch(expected: String, found: String)
    /// The value is malformed, with the reason.
    case invalid(String)

    public var description: String {
        switch self {
        case .typeMismatch(let e, let f): "expected a D-Bus value of type '\(e)' but found '\(f)'"
        case .invalid(let why): "invalid D-Bus value: \(why)"
        }
    }
}
