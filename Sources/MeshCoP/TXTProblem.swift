/// Something wrong in a `_meshcop._udp` TXT record. The rest of the record is still decoded.
///
/// Prints as one sentence, e.g. "TXT key \"sb\": length 3 is not 4".
public struct TXTProblem: Hashable, Sendable, CustomStringConvertible, Encodable {
    /// The key concerned, or nil for a problem of the wire format.
    public var key: String?
    /// What is wrong.
    public var reason: Reason

    /// What is wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The value is not valid for its key.
        case malformedValue(ValueDecodingError)
        /// The key appeared before; as RFC 6763 §6.4 says, only the first one counts.
        case duplicateKey
        /// The key is empty or not printable US-ASCII without "=" (RFC 6763 §6.4).
        case invalidKey
        /// In the wire format, the string at `offset` claims `length` bytes but only `available` remain.
        case truncatedString(offset: Int, length: Int, available: Int)

        /// The reason as a sentence fragment.
        public var description: String {
            switch self {
            case .malformedValue(let e): e.description
            case .duplicateKey: "the key appears again; only its first value is used"
            case .invalidKey: "the key is not printable ASCII without '='"
            case .truncatedString(let offset, let length, let available):
                "the string at offset \(offset) claims \(length) bytes but only \(available) remain"
            }
        }
    }

    /// A problem with `key` (nil for the wire format).
    public init(key: String?, reason: Reason) {
        self.key = key
        self.reason = reason
    }

    /// One sentence naming the key.
    public var description: String {
        if let key { return "TXT key \"\(escapingControlCharacters(key))\": \(reason)" }
        return "TXT data: \(reason)"
    }

    private enum CodingKeys: String, CodingKey { case key, message }

    /// Encodes `{"key": "sb", "message": "…"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(key, forKey: .key)
        try c.encode(description, forKey: .message)
    }
}
