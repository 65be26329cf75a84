/// A cursor over untrusted bytes: every read is bounds-checked and throws instead of trapping.
public struct ByteReader: Sendable {
    /// A read went past the end of the input.
    public struct EndOfInput: Error, Equatable, Sendable, CustomStringConvertible {
        /// Offset at which the read started.
        public let offset: Int
        /// Bytes the read needed.
        public let needed: Int
        /// Bytes that were left.
        public let available: Int
        /// An end-of-input error for a read of `needed` bytes at `offset` with `available` left.
        public init(offset: Int, needed: Int, available: Int) {
            self.offset = offset
            self.needed = needed
            self.available = available
        }
        public var description: String {
            "needed \(needed) byte(s) at offset \(offset) but only \(available) remain"
        }
    }

    /// The whole input.
    public let bytes: [UInt8]
    /// Offset of the next byte to read.
    public private(set) var offset: Int

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Bytes not yet read.
    public var remaining: Int { bytes.count - offset }
    /// True when everything has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads one byte.
    public mutating func readUInt8() throws(EndOfInput) -> UInt8 {
        guard remaining >= 1 else { throw EndOfInput(offset: offset, needed: 1, available: remaining) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian unsigned integer of `T`'s width.
    public mutating func readBigEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self) throws(EndOfInput) -> T {
        let size = T.bitWidth / 8
        guard remaining >= size else { throw EndOfInput(offset: offset, needed: size, available: remaining) }
        var v: T = 0
        for i in 0..<size { v = v << 8 | T(bytes[offset + i]) }
        offset += size
        return v
    }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int) throws(EndOfInput) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw EndOfInput(offset: offset, needed: count, available: remaining)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads everything that is left.
    public mutating func readRemaining() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
