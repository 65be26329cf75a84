/// A Matter node's operational node ID on its fabric (Matter Core Specification, section 2.5.5): a
/// 64-bit number the commissioner assigns. Shown in decimal, as python-matter-server and Home Assistant
/// show it.
public struct NodeID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The 64-bit node ID.
    public let rawValue: UInt64

    /// The node ID `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The node ID `value`.
    public init(_ value: UInt64) { self.rawValue = value }

    /// Operational node IDs: 0x0000_0000_0000_0001 to 0xFFFF_FFEF_FFFF_FFFF (the rest is reserved for
    /// temporary, PAKE, CASE-authenticated-tag and group IDs).
    public static let operationalRange: ClosedRange<UInt64> = 0x0000_0000_0000_0001...0xFFFF_FFEF_FFFF_FFFF

    /// Whether this is an operational node ID.
    public var isOperational: Bool { Self.operationalRange.contains(rawValue) }

    /// Reads decimal digits, or hex after `0x`.
    public init?(parsing text: String) {
        let isHex = text.hasPrefix("0x") || text.hasPrefix("0X")
        let digits = isHex ? text.dropFirst(2) : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ isHex ? $0.isHexDigit : ($0.isASCII && $0.isNumber) }),
            let value = UInt64(digits, radix: isHex ? 16 : 10)
        else { return nil }
        self.rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (a: NodeID, b: NodeID) -> Bool { a.rawValue < b.rawValue }

    /// Decodes a JSON number.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(UInt64.self) }

    /// Encodes as a JSON number.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
