/// A device's serial number in a QR code's optional data (Matter Core Specification, section 5.1.5,
/// tag 0x00): a UTF-8 string or an unsigned integer of up to 32 bits.
public enum SerialNumber: Hashable, Sendable, CustomStringConvertible {
    /// A serial number written as text.
    case string(String)
    /// A serial number written as a number.
    case number(UInt32)

    /// The tag of the serial number in the optional data.
    public static let tag: UInt8 = 0x00

    /// The serial number as text: the string, or the number in decimal.
    public var text: String {
        switch self {
        case .string(let s): s
        case .number(let n): String(n)
        }
    }

    /// The same as ``text``.
    public var description: String { text }

    /// The serial number held by `value`, or nil when a serial number cannot have that type (a signed
    /// integer, or an unsigned one above 32 bits).
    init?(_ value: OptionalDataElement.Value) {
        switch value {
        case .string(let s): self = .string(s)
        case .unsignedInteger(let n):
            guard let n = UInt32(exactly: n) else { return nil }
            self = .number(n)
        case .signedInteger: return nil
        }
    }

    /// The TLV value this serial number is written as.
    var value: OptionalDataElement.Value {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .unsignedInteger(UInt64(n))
        }
    }
}
