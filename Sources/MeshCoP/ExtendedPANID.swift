import TBRFoundation

/// A Thread Extended PAN ID (Extended PAN ID TLV 2): 8 bytes, shown as 16 hex digits.
public struct ExtendedPANID: TLVValue, RawRepresentable, Comparable, Codable, CustomStringConvertible,
    LosslessStringConvertible
{
    /// The 8 bytes as a big-endian integer.
    public var rawValue: UInt64

    /// The Extended PAN ID whose bytes are `rawValue` big-endian.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The Extended PAN ID whose bytes are `value` big-endian.
    public init(_ value: UInt64) { self.rawValue = value }

    /// Parses 16 hex digits (an optional "0x" prefix is allowed).
    public init?(_ text: String) {
        guard let bytes = try? Hex.decode(text), bytes.count == 8 else { return nil }
        rawValue = bigEndianValue(bytes)
    }

    /// Decodes the 8-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 8 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 8)
        rawValue = bigEndianValue(tlvValue)
    }

    /// The 8 bytes.
    public var tlvValue: [UInt8] { bigEndianBytes(rawValue, count: 8) }

    /// The 8 bytes.
    public var bytes: [UInt8] { tlvValue }

    /// 16 lower-case hex digits, e.g. "1111111122222222".
    public var description: String { Hex.encode(tlvValue) }

    /// Orders by the wire value.
    public static func < (a: ExtendedPANID, b: ExtendedPANID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON string of 16 hex digits.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let v = ExtendedPANID(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "an extended PAN ID is 16 hex digits"))
        }
        self = v
    }

    /// Encodes a JSON string of 16 hex digits.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
