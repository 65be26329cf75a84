/// One element of a QR code's optional data (Matter Core Specification, section 5.1.5): a value under
/// a context tag of the TLV structure that follows the fixed fields.
///
/// Tags 0x00 to 0x7F are the Matter-common ones (0x00 is the serial number, which ``SetupPayload``
/// keeps as ``SerialNumber``; 0x01 to 0x04 describe multi-device commissioning); tags 0x80 to 0xFF
/// belong to the vendor. Elements are kept in the order the code lists them.
public struct OptionalDataElement: Hashable, Sendable, CustomStringConvertible {
    /// The context tag, 0x00 to 0xFF.
    public var tag: UInt8
    /// The value.
    public var value: Value

    /// The tags that belong to the vendor.
    public static let vendorTags: ClosedRange<UInt8> = 0x80...0xFF
    /// The Matter-common tags other than the serial number's.
    public static let commonTags: ClosedRange<UInt8> = 0x01...0x7F

    /// An element.
    /// - Parameters:
    ///   - tag: the context tag.
    ///   - value: the value.
    public init(tag: UInt8, value: Value) {
        self.tag = tag
        self.value = value
    }

    /// An element's value: the three TLV types a payload's optional data may hold.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        /// A UTF-8 string.
        case string(String)
        /// A signed integer.
        case signedInteger(Int64)
        /// An unsigned integer.
        case unsignedInteger(UInt64)

        /// The type's name in tbrctl's JSON: `string`, `int` or `uint`.
        public var typeName: String {
            switch self {
            case .string: "string"
            case .signedInteger: "int"
            case .unsignedInteger: "uint"
            }
        }

        /// The string in double quotes (control characters escaped), or the number.
        public var description: String {
            switch self {
            case .string(let s): "\"" + s.unicodeScalars.map { escaped($0) }.joined() + "\""
            case .signedInteger(let v): String(v)
            case .unsignedInteger(let v): String(v)
            }
        }
    }

    /// `tag 0x82: string "myData"`.
    public var description: String {
        "tag 0x" + String(tag, radix: 16, uppercase: true) + ": \(value.typeName) \(value)"
    }
}

/// `scalar` as itself, or escaped when it is a control character, a quote or a backslash.
func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\"": return "\\\""
    case "\\": return "\\\\"
    case "\n": return "\\n"
    case "\t": return "\\t"
    default:
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
            return "\\u{" + String(scalar.value, radix: 16) + "}"
        }
        return String(scalar)
    }
}
