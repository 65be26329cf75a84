/// A Thread network name (Network Name TLV 3): 1–16 bytes of UTF-8.
///
/// The bytes are kept exactly as received: valid UTF-8 decodes to one `String` and encodes back to the
/// same bytes.
public struct NetworkName: TLVValue, RawRepresentable, Codable, CustomStringConvertible {
    /// The name.
    public let rawValue: String

    /// The longest name, in UTF-8 bytes.
    public static let maximumLength = 16

    /// The name `rawValue`, or nil if its UTF-8 is empty or longer than 16 bytes.
    public init?(rawValue: String) {
        guard (1...Self.maximumLength).contains(rawValue.utf8.count) else { return nil }
        self.rawValue = rawValue
    }

    /// The name `text`, or nil if its UTF-8 is empty or longer than 16 bytes.
    public init?(_ text: String) { self.init(rawValue: text) }

    /// Decodes 1–16 bytes of UTF-8.
    /// - Throws: ``ValueDecodingError/tooShort(_:minimum:)``, ``ValueDecodingError/tooLong(_:maximum:)``
    ///   or ``ValueDecodingError/invalidUTF8``.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        guard !tlvValue.isEmpty else { throw .tooShort(0, minimum: 1) }
        guard tlvValue.count <= Self.maximumLength else { throw .tooLong(tlvValue.count, maximum: Self.maximumLength) }
        guard let s = String(validating: tlvValue, as: UTF8.self) else { throw .invalidUTF8 }
        rawValue = s
    }

    /// The UTF-8 bytes.
    public var tlvValue: [UInt8] { Array(rawValue.utf8) }

    /// The name as it is.
    public var description: String { rawValue }

    /// The name with control characters escaped (`\u{1B}`), safe to print on a terminal.
    public var printable: String { escapingControlCharacters(rawValue) }

    /// Decodes a JSON string of 1–16 UTF-8 bytes.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let n = NetworkName(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a network name is 1–16 bytes of UTF-8"))
        }
        self = n
    }

    /// Encodes a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// `text` with C0 and C1 control characters (and DEL) written as `\u{XX}`, so that untrusted names
/// cannot drive a terminal.
func escapingControlCharacters(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) {
            out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
