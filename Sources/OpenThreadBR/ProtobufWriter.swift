/// Appends protocol buffer fields in the order written.
public struct ProtobufWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// Appends a varint.
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends the tag of field `number` with `wireType`.
    public mutating func writeTag(_ number: UInt32, _ wireType: ProtobufWireType) {
        writeVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends a `bool` field.
    public mutating func write(_ number: UInt32, bool value: Bool) {
        writeTag(number, .varint)
        writeVarint(value ? 1 : 0)
    }

    /// Appends a `uint32`, `uint64` or non-negative enum field.
    public mutating func write(_ number: UInt32, varint value: UInt64) {
        writeTag(number, .varint)
        writeVarint(value)
    }

    /// Appends a `bytes`, `string` or embedded-message field.
    public mutating func write(_ number: UInt32, lengthDelimited payload: [UInt8]) {
        writeTag(number, .lengthDelimited)
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends bytes as they are (fields kept from another message).
    public mutating func writeRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
}
