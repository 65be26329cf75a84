/// A MeshCoP timestamp (Active Timestamp TLV 14, Pending Timestamp TLV 51, TXT key `at`).
///
/// Wire format: u64 big-endian = seconds (48 bits) << 16 | ticks (15 bits, 1/32768 s) << 1 | U, where
/// U is the "authoritative" bit. Every 64-bit value is a valid timestamp, so re-encoding is exact.
/// Timestamps order by seconds, then ticks, then U, like the 64-bit value.
public struct Timestamp: TLVValue, RawRepresentable, Comparable, Codable, CustomStringConvertible {
    /// The 64-bit wire value.
    public var rawValue: UInt64

    /// The largest number of seconds (2^48 − 1).
    public static let maximumSeconds: UInt64 = (1 << 48) - 1
    /// The largest number of ticks (2^15 − 1).
    public static let maximumTicks: UInt16 = (1 << 15) - 1

    /// The timestamp with 64-bit wire value `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The timestamp `seconds` + `ticks`/32768 with authoritative bit `isAuthoritative`, or nil when
    /// `seconds` exceeds 48 bits or `ticks` exceeds 15 bits.
    public init?(seconds: UInt64, ticks: UInt16 = 0, isAuthoritative: Bool = false) {
        guard seconds <= Self.maximumSeconds, ticks <= Self.maximumTicks else { return nil }
        rawValue = seconds << 16 | UInt64(ticks) << 1 | (isAuthoritative ? 1 : 0)
    }

    /// The timestamp OTBR builds for a pending dataset from wall-clock time: seconds since the Unix
    /// epoch, ticks = nanoseconds × 32768 / 10⁹, not authoritative. Nil when `unixSeconds` exceeds 48
    /// bits; `nanoseconds` beyond one second are cut to 15 bits of ticks.
    public init?(unixSeconds: UInt64, nanoseconds: UInt32) {
        let ticks = UInt16(truncatingIfNeeded: (UInt64(nanoseconds) * 32768 / 1_000_000_000) & 0x7FFF)
        self.init(seconds: unixSeconds, ticks: ticks)
    }

    /// Seconds (48 bits).
    public var seconds: UInt64 { rawValue >> 16 }
    /// Ticks of 1/32768 s (15 bits).
    public var ticks: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 1) & 0x7FFF }
    /// The U bit: set by an authoritative source (e.g. a commissioner with a real-time clock).
    public var isAuthoritative: Bool { rawValue & 1 == 1 }

    /// Decodes the 8-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 8 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 8)
        rawValue = bigEndianValue(tlvValue)
    }

    /// The 8-byte value.
    public var tlvValue: [UInt8] { bigEndianBytes(rawValue, count: 8) }

    /// "1 (ticks 0, not authoritative)".
    public var description: String {
        "\(seconds) (ticks \(ticks), \(isAuthoritative ? "authoritative" : "not authoritative"))"
    }

    /// Orders by the wire value.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.rawValue < b.rawValue }

    private enum CodingKeys: String, CodingKey { case seconds, ticks, authoritative }

    /// Decodes `{"seconds": 1, "ticks": 0, "authoritative": false}`; ticks and authoritative are
    /// optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try c.decode(UInt64.self, forKey: .seconds)
        let ticks = try c.decodeIfPresent(UInt16.self, forKey: .ticks) ?? 0
        let u = try c.decodeIfPresent(Bool.self, forKey: .authoritative) ?? false
        guard let t = Timestamp(seconds: seconds, ticks: ticks, isAuthoritative: u) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "seconds must fit 48 bits and ticks 15 bits"))
        }
        self = t
    }

    /// Encodes `{"seconds": 1, "ticks": 0, "authoritative": false}`, as OTBR's REST API does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(ticks, forKey: .ticks)
        try c.encode(isAuthoritative, forKey: .authoritative)
    }
}
