import TBRFoundation

/// An IEEE 802.15.4 extended (EUI-64 style) address, e.g. a border router's (TXT key `xa`): 8 bytes.
public struct ExtendedAddress: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    LosslessStringConvertible
{
    /// The 8 bytes as a big-endian integer.
    public var rawValue: UInt64

    /// The address whose bytes are `rawValue` big-endian.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Parses 16 hex digits.
    public init?(_ text: String) {
        guard let b = try? Hex.decode(text), b.count == 8 else { return nil }
        rawValue = bigEndianValue(b)
    }

    /// Decodes 8 bytes.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless there are 8.
    public init(bytes: [UInt8]) throws(ValueDecodingError) {
        guard bytes.count == 8 else { throw .wrongLength(bytes.count, expected: [8]) }
        rawValue = bigEndianValue(bytes)
    }

    /// The 8 bytes.
    public var bytes: [UInt8] { bigEndianBytes(rawValue, count: 8) }

    /// The last two bytes as 4 upper-case hex digits, the "#0BBF" suffix OTBR puts in its
    /// `_meshcop._udp` instance name.
    public var instanceNameSuffix: String { hex4(UInt16(truncatingIfNeeded: rawValue)).uppercased() }

    /// 16 lower-case hex digits.
    public var description: String { Hex.encode(bytes) }

    /// Orders by the wire value.
    public static func < (a: ExtendedAddress, b: ExtendedAddress) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON string of 16 hex digits.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let v = ExtendedAddress(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "an extended address is 16 hex digits"))
        }
        self = v
    }

    /// Encodes a JSON string of 16 hex digits.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
