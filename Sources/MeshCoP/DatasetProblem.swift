/// One problem found by validation, with the TLV and offset it concerns.
///
/// Prints as one sentence, e.g. "TLV 0 (Channel) at offset 10: channel 27 is outside 11–26 (page 0)"
/// or "TLV 5 (Network Key) is missing: a complete Active dataset needs it".
public struct DatasetProblem: Hashable, Sendable, CustomStringConvertible, Encodable {
    /// The TLV type concerned, or nil for the whole dataset.
    public var tlvType: TLVType?
    /// Byte offset of the TLV concerned, or nil when it is missing (or for the whole dataset).
    public var offset: Int?
    /// What is wrong.
    public var reason: Reason

    /// What is wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The bytes do not decode (see ``DatasetDecodingError``).
        case malformed(DatasetDecodingError.Reason)
        /// A TLV a complete dataset of this kind needs is absent.
        case missing(DatasetKind)
        /// The channel (or wake-up channel) is not one a Thread network here can use.
        case unsupportedChannel(Channel)
        /// The PAN ID is the broadcast PAN ID 0xFFFF.
        case broadcastPANID
        /// The mesh-local prefix is not in fd00::/8.
        case meshLocalPrefixNotUniqueLocal(MeshLocalPrefix)

        /// The reason as a sentence fragment.
        public var description: String {
            switch self {
            case .malformed(let r): r.description
            case .missing(let kind): "a complete \(kind) dataset needs it"
            case .unsupportedChannel(let c): c.unsupportedReason ?? "channel \(c) is not supported"
            case .broadcastPANID: "PAN ID 0xffff is the broadcast PAN ID and cannot identify a network"
            case .meshLocalPrefixNotUniqueLocal(let p): "mesh-local prefix \(p) is not in fd00::/8"
            }
        }
    }

    /// A problem with the TLV of `tlvType` at `offset`.
    public init(tlvType: TLVType?, offset: Int?, reason: Reason) {
        self.tlvType = tlvType
        self.offset = offset
        self.reason = reason
    }

    /// The problem a decoding error describes.
    public init(_ error: DatasetDecodingError) {
        self.init(tlvType: error.tlvType, offset: error.offset, reason: .malformed(error.reason))
    }

    /// One sentence, with the TLV and its offset first.
    public var description: String {
        switch (tlvType, offset) {
        case (let t?, let o?): "TLV \(t) at offset \(o): \(reason)"
        case (let t?, nil): "TLV \(t) is missing: \(reason)"
        case (nil, let o?): "Dataset at offset \(o): \(reason)"
        case (nil, nil): "Dataset: \(reason)"
        }
    }

    private enum CodingKeys: String, CodingKey { case tlvType, tlvName, offset, message }

    /// Encodes `{"tlvType": 3, "tlvName": "Network Name", "offset": 61, "message": "…"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(tlvType, forKey: .tlvType)
        try c.encodeIfPresent(tlvType?.name, forKey: .tlvName)
        try c.encodeIfPresent(offset, forKey: .offset)
        try c.encode(description, forKey: .message)
    }
}
