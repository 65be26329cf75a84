/// A D-Bus type signature such as `a{sv}` or `(tstayqqynyybb)`, validated on construction.
///
/// A signature may hold several complete types (a message body); ``types`` gives them parsed.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    public let rawValue: String
    /// The complete types it is made of, in order.
    public let types: [SignatureType]

    /// Parses and validates `rawValue` (D-Bus specification, "Valid Signatures"): at most 255 bytes,
    /// known type codes, dict entries only as array elements with a basic key, non-empty structs, and at
    /// most 32 levels of array and 32 of struct nesting.
    /// - Throws: ``DBusNameError`` naming the problem and its position.
    public init(_ rawValue: String) throws(DBusNameError) {
        let bytes = Array(rawValue.utf8)
        guard bytes.count <= 255 else {
            throw DBusNameError(kind: "signature", text: rawValue, reason: "longer than 255 bytes")
        }
        var parser = SignatureParser(bytes: bytes, text: rawValue)
        var types: [SignatureType] = []
        while !parser.isAtEnd { types.append(try parser.parseComplete(arrayDepth: 0, structDepth: 0)) }
        self.rawValue = rawValue
        self.types = types
    }

    /// A signature from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    /// The signature of `types` in order.
    public init(_ types: [SignatureType]) {
        self.types = types
        self.rawValue = types.map(\.text).joined()
    }

    /// The empty signature (no arguments).
    public static let empty = Signature([])

    /// True if this signature is exactly one complete type.
    public var isSingleCompleteType: Bool { types.count == 1 }

    public var description: String { rawValue }

    public static func == (a: Signature, b: Signature) -> Bool { a.rawValue == b.rawValue }
    public func hash(into h: inout Hasher) { h.combine(rawValue) }
}

/// One complete D-Bus type.
public indirect enum SignatureType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD
    case variant
    case array(SignatureType)
    case dictionary(key: SignatureType, value: SignatureType)
    case structure([SignatureType])

    /// The type's signature text.
    public var text: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let e): "a" + e.text
        case .dictionary(let k, let v): "a{" + k.text + v.text + "}"
        case .structure(let fields): "(" + fields.map(\.text).joined() + ")"
        }
    }

    /// True for the basic (non-container) types, the only ones allowed as dict keys.
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// The signature holding just this type.
    public var signature: Signature { Signature([self]) }

    public var description: String { text }
}

/// Recursive-descent parser over signature bytes.
struct SignatureParser {
    let bytes: [UInt8]
    let text: String
    var index = 0

    init(bytes: [UInt8], text: String) {
        self.bytes = bytes
        self.text = text
    }

    var isAtEnd: Bool { index >= bytes.count }

    func fail(_ reason: String) -> DBusNameError {
        DBusNameError(kind: "signature", text: text, reason: reason + " at position \(index)")
    }

    mutating func parseComplete(arrayDepth: Int, structDepth: Int) throws(DBusNameError) -> SignatureType {
        guard index < bytes.count else { throw fail("incomplete type") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            guard arrayDepth < 32 else { throw fail("more than 32 nested arrays") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                let key = try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth + 1)
                guard key.isBasic else { throw fail("dict key must be a basic type") }
                let value = try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw fail("dict entry must have exactly two types and end with '}'")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseComplete(arrayDepth: arrayDepth + 1, structDepth: structDepth))
        case UInt8(ascii: "("):
            guard structDepth < 32 else { throw fail("more than 32 nested structs") }
            var fields: [SignatureType] = []
            while true {
                guard index < bytes.count else { throw fail("unterminated struct") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                fields.append(try parseComplete(arrayDepth: arrayDepth, structDepth: structDepth + 1))
            }
            guard !fields.isEmpty else { throw fail("empty struct") }
            return .structure(fields)
        case UInt8(ascii: "{"):
            index -= 1
            throw fail("dict entry outside an array")
        case UInt8(ascii: ")"), UInt8(ascii: "}"):
            index -= 1
            throw fail("unbalanced '\(Character(Unicode.Scalar(c)))'")
        default:
            index -= 1
            throw fail("unknown type code '\(Character(Unicode.Scalar(c)))'")
        }
    }
}
