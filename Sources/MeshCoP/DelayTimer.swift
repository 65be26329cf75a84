/// The delay before a pending dataset becomes active (Delay Timer TLV 52): u32 big-endian
/// milliseconds.
public struct DelayTimer: TLVValue, Comparable, Codable, CustomStringConvertible {
    /// The delay in milliseconds.
    public var milliseconds: UInt32

    /// A delay of `milliseconds`.
    public init(milliseconds: UInt32) { self.milliseconds = milliseconds }

    /// Decodes the 4-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 4 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 4)
        milliseconds = UInt32(truncatingIfNeeded: bigEndianValue(tlvValue))
    }

    /// The 4-byte value.
    public var tlvValue: [UInt8] { bigEndianBytes(UInt64(milliseconds), count: 4) }

    /// The delay as a `Duration`.
    public var duration: Duration { .milliseconds(Int64(milliseconds)) }

    /// "300000 ms".
    public var description: String { "\(milliseconds) ms" }

    /// Orders by the wire value.
    public static func < (a: DelayTimer, b: DelayTimer) -> Bool { a.milliseconds < b.milliseconds }

    /// Decodes a JSON number of milliseconds.
    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(UInt32.self)
    }

    /// Encodes a JSON number of milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(milliseconds)
    }
}
