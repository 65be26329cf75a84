/// Why a QR code's optional data (Matter TLV, Matter Core Specification, Appendix A, holding one
/// anonymous structure) cannot be decoded: the offset, counted from the first byte after the 11 bytes
/// of fixed fields, and the reason.
public struct OptionalDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the problem from the start of the optional data.
    public var offset: Int
    /// What is wrong there.
    public var reason: Reason

    /// The problem `reason` at `offset`.
    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// What is wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The data ends in the middle of an element.
        case truncated
        /// The data does not start with an anonymous structure (control byte 0x15).
        case notAnAnonymousStructure(UInt8)
        /// A member of the structure does not have a context tag (its control byte is shown).
        case notAContextTag(UInt8)
        /// Two members have the same tag.
        case duplicateTag(UInt8)
        /// A string is not valid UTF-8.
        case invalidUTF8(tag: UInt8)
        /// The element type is reserved (0x19 to 0x1F), or an end of container where a member belongs.
        case reservedElementType(UInt8)
        /// Containers are nested deeper than the decoder follows.
        case nestedTooDeep
        /// Bytes follow the end of the structure.
        case trailingBytes(Int)

        /// The reason as a clause.
        public var description: String {
            switch self {
            case .truncated: "the data ends in the middle of an element"
            case .notAnAnonymousStructure(let c): "expected an anonymous structure (0x15), found control byte \(hex2(c))"
            case .notAContextTag(let c): "a member has control byte \(hex2(c)); members need context tags"
            case .duplicateTag(let t): "tag \(hex2(t)) appears twice"
            case .invalidUTF8(let t): "the string under tag \(hex2(t)) is not valid UTF-8"
            case .reservedElementType(let t): "element type \(hex2(t)) is reserved or out of place"
            case .nestedTooDeep: "containers are nested more than \(OptionalDataCodec.maximumDepth) deep"
            case .trailingBytes(let n): "\(n) byte\(n == 1 ? "" : "s") follow the end of the structure"
            }
        }
    }

    /// `<reason> (offset N)`.
    public var description: String { "\(reason) (offset \(offset))" }
}

/// `0x0C`.
func hex2(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
}
