/// An IEEE EUI-64, as otbr-agent's `Eui64` property carries it: a `t` whose 8 bytes are read big-endian
/// (byte 0 is the most significant, ot-br-posix `ConvertOpenThreadUint64`).
public struct EUI64: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 8 bytes as a big-endian integer.
    public var rawValue: UInt64

    /// The EUI-64 whose bytes are `rawValue` big-endian.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The 8 bytes, most significant first.
    public var bytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: rawValue >> (56 - 8 * $0)) } }

    /// 16 lower-case hex digits, e.g. "18b4300000000001".
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public static func < (a: EUI64, b: EUI64) -> Bool { a.rawValue < b.rawValue }
}
