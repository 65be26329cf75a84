/// Why the bytes of one value (a TLV value or a TXT value) are not a valid value of its type.
///
/// The description is a sentence fragment such as "length 17 exceeds 16"; the dataset and TXT decoders
/// prefix it with where the value was found.
public enum ValueDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value must have exactly one of `expected` lengths.
    case wrongLength(Int, expected: [Int])
    /// The value is shorter than `minimum`.
    case tooShort(Int, minimum: Int)
    /// The value is longer than `maximum`.
    case tooLong(Int, maximum: Int)
    /// The value must be UTF-8 text and is not.
    case invalidUTF8
    /// A channel mask entry starting at `offset` (within the value) runs past the end of the value.
    case truncatedChannelMaskEntry(offset: Int)
    /// A channel mask entry for a supported `page` has a mask of `length` bytes instead of 4.
    case channelMaskLength(page: UInt8, length: Int)
    /// The value is well-formed bytes but means nothing valid, explained by `reason`.
    case invalid(String)

    /// The reason as a sentence fragment.
    public var description: String {
        switch self {
        case .wrongLength(let n, let expected):
            "length \(n) is not \(Self.list(expected))"
        case .tooShort(let n, let minimum):
            n == 0 ? "the value is empty (at least \(minimum) byte\(minimum == 1 ? "" : "s") needed)"
                : "length \(n) is below the minimum of \(minimum)"
        case .tooLong(let n, let maximum):
            "length \(n) exceeds \(maximum)"
        case .invalidUTF8:
            "the value is not valid UTF-8"
        case .truncatedChannelMaskEntry(let offset):
            "the channel mask entry at value byte \(offset) is truncated"
        case .channelMaskLength(let page, let length):
            "the mask for channel page \(page) is \(length) byte\(length == 1 ? "" : "s") long, not 4"
        case .invalid(let reason):
            reason
        }
    }

    private static func list(_ values: [Int]) -> String {
        switch values.count {
        case 0: "allowed"
        case 1: "\(values[0])"
        default: values.dropLast().map(String.init).joined(separator: ", ") + " or \(values[values.count - 1])"
        }
    }
}
