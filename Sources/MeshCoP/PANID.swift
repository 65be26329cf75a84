/// An IEEE 802.15.4 PAN identifier (PAN ID TLV 1): u16 big-endian.
public struct PANID: TLVValue, RawRepresentable, Comparable, Codable, CustomStringConvertible,
    LosslessStringConvertible
{
    /// The 16-bit identifier.
    public var rawValue: UInt16

    /// The broadcast PAN ID 0xFFFF, which a Thread network may not use (OTBR reads it as "pick one").
    public static let broadcast = PANID(0xFFFF)

    /// The PAN ID `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The PAN ID `value`.
    public init(_ value: UInt16) { self.rawValue = value }

    /// Parses "0x1234" (hex) or "4660" (decimal), as OpenThread's CLI does.
    public init?(_ text: String) {
        guard let v = parseUInt(text, as: UInt16.self) else { return nil }
        rawValue = v
    }

    /// Decodes the 2-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 2 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 2)
        rawValue = UInt16(tlvValue[0]) << 8 | UInt16(tlvValue[1])
    }

    /// The 2-byte value.
    public var tlvValue: [UInt8] { [UInt8(rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)] }

    /// "0x1234": lower-case hex, 4 digits.
    public var description: String { "0x" + hex4(rawValue) }

    /// Orders by the wire value.
    public static func < (a: PANID, b: PANID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON number (as OTBR's REST API writes it) or a string such as "0x1234".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(UInt16.self) {
            rawValue = n
        } else if let p = PANID(try c.decode(String.self)) {
            self = p
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a PAN ID is a number 0–65535 or \"0x1234\""))
        }
    }

    /// Encodes a JSON number, as OTBR's REST API does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// `value` as 4 lower-case hex digits.
func hex4(_ value: UInt16) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: 4 - s.count) + s
}

/// Parses "0x…" as hex and anything else as decimal; nil when it does not fit `T`.
func parseUInt<T: FixedWidthInteger & UnsignedInteger>(_ text: String, as _: T.Type) -> T? {
    let t = text.trimmingSpaces()
    if t.hasPrefix("0x") || t.hasPrefix("0X") {
        return T(t.dropFirst(2), radix: 16)
    }
    return T(t, radix: 10)
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return self[start...end]
    }
}
