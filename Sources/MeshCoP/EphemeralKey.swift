/// A Thread 1.4 ephemeral key (ePSKc, shown to people as a "TAP"): 9 digits, 8 random ones and a
/// Verhoeff check digit, as OpenThread's `otBorderAgentEphemeralKeyStart` callers generate it.
///
/// `description`, `debugDescription`, `dump()` and JSON show ``Secrets/redacted``; read ``digits`` to
/// hand the key to the person who asked for it.
public struct EphemeralKey: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The number of characters: 8 random digits and the check digit.
    public static let length = 9

    /// The 9 digits. Handle with care: never log them.
    public let digits: String

    /// Why a string is not an ephemeral key.
    public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key has this many characters instead of 9.
        case wrongLength(Int)
        /// The character at `position` (0-based) is not a digit.
        case notADigit(Character, position: Int)
        /// The last digit is not the Verhoeff check digit of the first 8.
        case checkDigitMismatch

        /// The error as one sentence.
        public var description: String {
            switch self {
            case .wrongLength(let n):
                "an ephemeral key is \(EphemeralKey.length) digits; this one has \(n) character\(n == 1 ? "" : "s")"
            case .notADigit(let c, let p):
                "character \(quoted(c)) at position \(p + 1) of the ephemeral key is not a digit"
            case .checkDigitMismatch:
                "the ephemeral key's last digit is not its check digit (a digit may be mistyped)"
            }
        }
    }

    /// Validates `text` as a 9-digit key whose last digit is the Verhoeff check digit.
    /// - Throws: ``ValidationError``.
    public init(validating text: String) throws(ValidationError) {
        let count = text.count
        guard count == Self.length else { throw .wrongLength(count) }
        do throws(Verhoeff.Error) {
            try Verhoeff.validate(text)
        } catch {
            switch error {
            case .notADigit(let c, let p): throw .notADigit(c, position: p)
            case .empty, .checkDigitMismatch: throw .checkDigitMismatch
            }
        }
        digits = text
    }

    /// Validates a key as a person types it, reading it off a router's screen or app: spaces and dashes
    /// between the digits (`123 456 785`, `123-456-785`) are ignored.
    /// - Throws: ``ValidationError``.
    public init(typed text: String) throws(ValidationError) {
        try self.init(validating: String(text.filter { $0 != " " && $0 != "-" }))
    }

    /// A new key from OpenSSL's CSPRNG: 8 uniform digits (random bytes of 250 and above are
    /// rejected so that `byte % 10` is unbiased) and the check digit.
    /// - Throws: ``CryptoError`` when the CSPRNG fails.
    public static func generate() throws(CryptoError) -> EphemeralKey {
        var body = ""
        while body.count < length - 1 {
            for byte in try LibCrypto.randomBytes(16) where byte < 250 && body.count < length - 1 {
                body.append(Character(Unicode.Scalar(byte % 10 + 0x30)))
            }
        }
        // The body is 8 ASCII digits, so the check digit always exists.
        let check = (try? Verhoeff.checkDigit(for: body)) ?? "0"
        return EphemeralKey(digits: body + String(check))
    }

    private init(digits: String) { self.digits = digits }

    /// Always ``Secrets/redacted``.
    public var description: String { Secrets.redacted }
    /// Always `EphemeralKey(<redacted>)`.
    public var debugDescription: String { "EphemeralKey(\(Secrets.redacted))" }
    /// A mirror without the digits.
    public var customMirror: Mirror { Mirror(self, children: ["digits": Secrets.redacted]) }

    /// Decodes and validates a JSON string of 9 digits; a redacted key throws `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(validating: text)
        } catch {
            let why = text == Secrets.redacted ? "the ephemeral key is redacted" : error.description
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: why))
        }
    }

    /// Encodes the digits when the encoder's `userInfo[.revealSecrets]` is `true`, else
    /// ``Secrets/redacted`` (see ``Secrets``).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(encoder.revealsSecrets ? digits : Secrets.redacted)
    }
}
