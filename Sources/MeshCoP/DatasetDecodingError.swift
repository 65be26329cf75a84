/// Why TLV bytes are not a valid operational dataset, and where.
///
/// Prints as one sentence, e.g. "TLV 3 (Network Name) at offset 61: length 17 exceeds 16".
public struct DatasetDecodingError: Error, Hashable, Sendable, CustomStringConvertible, Encodable {
    /// Byte offset of the TLV's type byte (for ``Reason/tooLong(_:)``, 254; for
    /// ``Reason/notHex(_:)``, the character position in the text).
    public var offset: Int
    /// The type of the TLV at fault, or nil for problems of the whole dataset.
    public var tlvType: TLVType?
    /// What is wrong.
    public var reason: Reason

    /// What is wrong with the bytes.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The data ends after the type byte.
        case missingLength
        /// The value of `length` bytes runs past the end, where only `available` bytes remain.
        case truncatedValue(length: Int, available: Int)
        /// The length byte is 0xFF (an extended TLV), which datasets do not allow.
        case extendedLength
        /// The type already appeared in the TLV at `firstOffset`.
        case duplicate(firstOffset: Int)
        /// The dataset is `length` bytes long, more than ``OperationalDataset/maximumLength``.
        case tooLong(Int)
        /// The value is not valid for the TLV's type.
        case invalidValue(ValueDecodingError)
        /// The text given as hex is not hex.
        case notHex(String)

        /// The reason as a sentence fragment.
        public var description: String {
            switch self {
            case .missingLength:
                "the length byte is missing (the data ends after the type byte)"
            case .truncatedValue(let length, let available):
                "length \(length) runs past the end of the data (only \(available) byte\(available == 1 ? "" : "s") left)"
            case .extendedLength:
                "extended-length TLVs (length byte 0xFF) are not allowed in a dataset"
            case .duplicate(let first):
                "duplicate of the TLV at offset \(first) (each type may appear once)"
            case .tooLong(let n):
                "the dataset is \(n) bytes long; the maximum is \(OperationalDataset.maximumLength)"
            case .invalidValue(let e):
                e.description
            case .notHex(let s):
                s
            }
        }
    }

    /// An error at `offset` in the TLV of `tlvType` (nil for the whole dataset).
    public init(offset: Int, tlvType: TLVType?, reason: Reason) {
        self.offset = offset
        self.tlvType = tlvType
        self.reason = reason
    }

    /// "TLV 3 (Network Name) at offset 61: length 17 exceeds 16".
    public var description: String {
        if let tlvType { return "TLV \(tlvType) at offset \(offset): \(reason)" }
        if case .notHex = reason { return "Dataset text is not hex: \(reason)" }
        return "Dataset at offset \(offset): \(reason)"
    }

    private enum CodingKeys: String, CodingKey { case tlvType, tlvName, offset, message }

    /// Encodes `{"tlvType": 3, "tlvName": "Network Name", "offset": 61, "message": "…"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(tlvType, forKey: .tlvType)
        try c.encodeIfPresent(tlvType?.name, forKey: .tlvName)
        try c.encode(offset, forKey: .offset)
        try c.encode(description, forKey: .message)
    }
}
