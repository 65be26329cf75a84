/// A typed value carried in the value field of a MeshCoP TLV.
///
/// Decoding is total: any byte string either gives a value or throws ``ValueDecodingError``; it never
/// traps. Encoding a decoded value gives back exactly the bytes it was decoded from.
public protocol TLVValue: Hashable, Sendable {
    /// Decodes the value field of a TLV (without its type and length bytes).
    /// - Throws: ``ValueDecodingError`` when the bytes are not a valid value of this type.
    init(tlvValue: [UInt8]) throws(ValueDecodingError)

    /// The value field of the TLV (without its type and length bytes).
    var tlvValue: [UInt8] { get }
}

extension TLVValue {
    /// Throws unless `bytes` has exactly `count` bytes.
    static func requireLength(_ bytes: [UInt8], _ count: Int) throws(ValueDecodingError) {
        guard bytes.count == count else { throw .wrongLength(bytes.count, expected: [count]) }
    }
}

/// The big-endian integer in `bytes` (at most 8 of them).
func bigEndianValue(_ bytes: some Collection<UInt8>) -> UInt64 {
    var v: UInt64 = 0
    for b in bytes { v = v << 8 | UInt64(b) }
    return v
}

/// `value` as `count` big-endian bytes.
func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { i in UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - i))) }
}
