/// The mesh-local /64 prefix of a Thread network (Mesh-Local Prefix TLV 7): 8 bytes.
///
/// Shown as IPv6 text, "fdad:70bf:e5aa:15dd::/64". A Thread network's prefix should be a unique local
/// address (fd00::/8).
public struct MeshLocalPrefix: TLVValue, RawRepresentable, Codable, CustomStringConvertible,
    LosslessStringConvertible
{
    /// The 8 prefix bytes as a big-endian integer.
    public var rawValue: UInt64

    /// The prefix whose bytes are `rawValue` big-endian.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The prefix whose bytes are `value` big-endian.
    public init(_ value: UInt64) { self.rawValue = value }

    /// Parses "fdad:70bf:e5aa:15dd::/64" or "fdad:70bf:e5aa:15dd::" (the last 64 bits must be zero;
    /// a prefix length, if given, must be 64).
    public init?(_ text: String) {
        var t = text.trimmingSpaces()
        if let slash = t.firstIndex(of: "/") {
            guard t[t.index(after: slash)...] == "64" else { return nil }
            t = t[..<slash]
        }
        guard let bytes = IPv6Text.parse(t), bytes[8...].allSatisfy({ $0 == 0 }) else { return nil }
        rawValue = bigEndianValue(bytes[..<8])
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

    /// The RFC 5952 text of the address of this prefix and interface identifier `iid` (an RLOC is
    /// `0000:00ff:fe00:<RLOC16>`), e.g. "fdde:ad00:beef:0:0:ff:fe00:fc00" written "fdde:ad00:beef::ff:fe00:fc00".
    public func address(interfaceIdentifier iid: UInt64) -> String {
        IPv6Text.format(tlvValue + bigEndianBytes(iid, count: 8))
    }

    /// True when the prefix is a unique local address, fd00::/8.
    public var isUniqueLocal: Bool { rawValue >> 56 == 0xFD }

    /// "fdad:70bf:e5aa:15dd::/64".
    public var description: String { IPv6Text.format(tlvValue + [UInt8](repeating: 0, count: 8)) + "/64" }

    /// Decodes a JSON string such as "fdad:70bf:e5aa:15dd::/64".
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let p = MeshLocalPrefix(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a mesh-local prefix looks like fd00:1:2:3::/64"))
        }
        self = p
    }

    /// Encodes a JSON string such as "fdad:70bf:e5aa:15dd::/64".
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
