import TBRFoundation

/// One DNS-SD TXT entry, `key=value` (RFC 6763 §6): the key as text, the value as raw bytes.
public struct TXTEntry: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The key, as received (DNS-SD keys compare case-insensitively).
    public var key: String
    /// The value bytes (empty for a key without "=" or with an empty value).
    public var value: [UInt8]

    /// The entry `key=value`.
    public init(key: String, value: [UInt8]) {
        self.key = key
        self.value = value
    }

    /// The entry `key=value` with `value` as UTF-8.
    public init(key: String, text: String) { self.init(key: key, value: Array(text.utf8)) }

    /// "key=" followed by the value as hex.
    public var description: String { "\(escapingControlCharacters(key))=\(Hex.encode(value))" }

    private enum CodingKeys: String, CodingKey { case key, value }

    /// Decodes `{"key": "sb", "value": "000001b1"}` (value in hex).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        guard let v = try? Hex.decode(try c.decode(String.self, forKey: .value)) else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: c, debugDescription: "the value is hex")
        }
        value = v
    }

    /// Encodes `{"key": "sb", "value": "000001b1"}` (value in hex).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(Hex.encode(value), forKey: .value)
    }
}
