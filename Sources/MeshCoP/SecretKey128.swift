import TBRFoundation

/// A 16-byte secret carried in a dataset TLV (the network key, the PSKc). The conformances below give
/// each the same parsing, hex form, and redaction: `description`, `debugDescription`, `dump()` and JSON
/// show ``Secrets/redacted`` unless an encoder is told to reveal secrets (see ``Secrets``).
public protocol SecretKey128: TLVValue, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 16 bytes. Handle with care: never log them.
    var bytes: [UInt8] { get }
    /// Wraps exactly 16 bytes (callers check the length).
    init(validatedBytes: [UInt8])
    /// What the secret is called in messages ("network key", "PSKc").
    static var secretName: String { get }
    /// The type's name in `debugDescription`.
    static var typeName: String { get }
}

extension SecretKey128 {
    /// The secret made of `bytes`, or nil unless there are exactly 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.init(validatedBytes: bytes)
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
        self.init(validatedBytes: tlvValue)
    }

    /// The 16 bytes.
    public var tlvValue: [UInt8] { bytes }

    /// The secret as 32 lower-case hex digits: the secret itself.
    public var hexString: String { Hex.encode(bytes) }

    /// Always ``Secrets/redacted``.
    public var description: String { Secrets.redacted }
    /// Always `<Type>(<redacted>)`.
    public var debugDescription: String { "\(Self.typeName)(\(Secrets.redacted))" }
    /// A mirror without the secret bytes.
    public var customMirror: Mirror { Mirror(self, children: ["bytes": Secrets.redacted]) }

    /// Decodes 32 hex digits; a redacted secret throws `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        self.init(validatedBytes: try decodeSecret(from: decoder, what: Self.secretName))
    }

    /// Encodes 32 hex digits when the encoder reveals secrets, else ``Secrets/redacted``.
    public func encode(to encoder: any Encoder) throws { try encodeSecret(bytes, to: encoder) }
}
