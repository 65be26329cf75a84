/// Appends integers and bytes in network (big-endian) order.
public struct ByteWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends `value` big-endian in `T`'s width.
    public mutating func writeBigEndian<T: FixedWidthInteger>(_ value: T) {
        let size = T.bitWidth / 8
        for i in stride(from: size - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (i * 8)))
        }
    }

    /// Appends raw bytes.
    public mutating func write<S: Sequence>(contentsOf data: S) where S.Element == UInt8 {
        bytes.append(contentsOf: data)
    }
}
