import TBRFoundation

/// The pre-shared key for the commissioner (PSKc TLV 4): 16 secret bytes, derived from the
/// commissioning passphrase with ``PSKc/derive(passphrase:networkName:extendedPANID:)``.
///
/// `description`, `debugDescription`, `dump()` and JSON show ``Secrets/redacted``; see ``Secrets``
/// for how to reveal it.
public struct PSKc: TLVValue, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 16 PSKc bytes. Handle with care: never log them.
    public let bytes: [UInt8]

    /// The PSKc made of `bytes`, or nil unless there are exactly 16.
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

    /// The PSKc as 32 lower-case hex digits: the secret itself.
    public var hexString: String { Hex.encode(bytes) }

    /// Always ``Secrets/redacted``.
    public var description: String { Secrets.redacted }
    /// Always `PSKc(<redacted>)`.
    public var debugDescription: String { "PSKc(\(Secrets.redacted))" }
    /// A mirror without the PSKc bytes.
    public var customMirror: Mirror { Mirror(self, children: ["bytes": Secrets.redacted]) }

    /// Decodes 32 hex digits; a redacted PSKc throws `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        bytes = try decodeSecret(from: decoder, what: "PSKc")
    }

    /// Encodes 32 hex digits when the encoder reveals secrets, else ``Secrets/redacted``.
    public func encode(to encoder: any Encoder) throws { try encodeSecret(bytes, to: encoder) }
}
