import TBRFoundation

/// How secrets (network key, PSKc, ephemeral key) appear in text and JSON.
///
/// Secrets never appear in `description`, `debugDescription`, `dump()` or JSON by default: they are
/// replaced by ``Secrets/redacted``. To put a secret into JSON, ask explicitly on the encoder:
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.userInfo[.revealSecrets] = true
/// let json = try encoder.encode(dataset)   // "networkKey": "00112233…"
/// ```
///
/// Without the key (or with `false`) the same call writes `"networkKey": "<redacted>"`. Decoding a
/// redacted secret from JSON throws `DecodingError.dataCorrupted`. For text, use the value's `bytes`
/// or `hexString`, or ``OperationalDataset/render(revealSecrets:)``.
public enum Secrets {
    /// The text that stands in for a secret: `<redacted>`.
    public static let redacted = "<redacted>"
}

extension CodingUserInfoKey {
    /// Set to `true` in an encoder's `userInfo` to write secrets (network key, PSKc, ephemeral key)
    /// in JSON instead of ``Secrets/redacted``. See ``Secrets``.
    public static let revealSecrets = CodingUserInfoKey(rawValue: "revealSecrets")!
}

extension Encoder {
    /// Whether the caller asked for secrets with ``CodingUserInfoKey/revealSecrets``.
    var revealsSecrets: Bool { userInfo[.revealSecrets] as? Bool ?? false }
}

/// A 16-byte secret's JSON form: hex, or ``Secrets/redacted`` unless the encoder reveals secrets.
func encodeSecret(_ bytes: [UInt8], to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(encoder.revealsSecrets ? Hex.encode(bytes) : Secrets.redacted)
}

/// Decodes a 16-byte secret from hex, refusing ``Secrets/redacted``.
func decodeSecret(from decoder: any Decoder, what: String) throws -> [UInt8] {
    let c = try decoder.singleValueContainer()
    let text = try c.decode(String.self)
    guard text != Secrets.redacted else {
        throw DecodingError.dataCorrupted(.init(
            codingPath: decoder.codingPath,
            debugDescription: "the \(what) is redacted; encode with userInfo[.revealSecrets] = true to keep it"))
    }
    guard let bytes = try? Hex.decode(text), bytes.count == 16 else {
        throw DecodingError.dataCorrupted(.init(
            codingPath: decoder.codingPath, debugDescription: "the \(what) must be 32 hex digits"))
    }
    return bytes
}
