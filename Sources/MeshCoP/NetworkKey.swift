import TBRFoundation

/// The Thread network key (Network Key TLV 5): 16 secret bytes.
///
/// `description`, `debugDescription`, `dump()` and JSON show ``Secrets/redacted``; see ``Secrets``
/// for how to reveal it.
public struct NetworkKey: TLVValue, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 16 key bytes. Handle with care: never log them.
    public let bytes: [UInt8]

    /// The key made of `bytes`, or nil unless there are exactly 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses 32 hex digits, or nil.
    public init?(hex: String) {
        guard let b = try? Hex.decode(hex) else { return nil }
        self.init(bytes: b)
    }

    /// Decodes the 16-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 16 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 16)
        bytes = tlvValue
    }

    /// The 16 bytes.
    public var tlvValue: [UInt8] { bytes }

    /// The key as 32 lower-case hex digits: the secret itself.
    public var hexString: String { Hex.encode(bytes) }

    /// Always ``Secrets/redacted``.
    public var description: String { Secrets.redacted }
    /// Always `NetworkKey(<redacted>)`.
    public var debugDescription: String { "NetworkKey(\(Secrets.redacted))" }
    /// A mirror without the key bytes.
    public var customMirror: Mirror { Mirror(self, children: ["bytes": Secrets.redacted]) }

    /// Decodes 32 hex digits; a redacted key throws `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        bytes = try decodeSecret(from: decoder, what: "network key")
    }

    /// Encodes 32 hex digits when the encoder reveals secrets, else ``Secrets/redacted``.
    public func encode(to encoder: any Encoder) throws { try encodeSecret(bytes, to: encoder) }
}
