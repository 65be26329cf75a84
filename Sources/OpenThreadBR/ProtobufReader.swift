/// The wire types of the protocol buffer encoding.
public enum ProtobufWireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// One field as read from the wire: its number, wire type, decoded payload, and its exact bytes (tag
/// included) so that a message can keep fields it does not know byte-exact.
public struct ProtobufField: Hashable, Sendable {
    /// The field number.
    public var number: UInt32
    /// The wire type.
    public var wireType: ProtobufWireType
    /// For varint fields, the value; for fixed fields, the little-endian value.
    public var integer: UInt64
    /// For length-delimited fields, the payload.
    public var payload: [UInt8]
    /// The field's bytes as they were on the wire, tag included.
    public var raw: [UInt8]
    /// Offset of the tag in the message.
    public var offset: Int

    /// The varint payload as a bool (any non-zero value is true, as protobuf decoders read it).
    public var bool: Bool { integer != 0 }
    /// The varint payload truncated to 32 bits, as protobuf decoders read `uint32`.
    public var uint32: UInt32 { UInt32(truncatingIfNeeded: integer) }
}

/// Reads protocol buffer fields from untrusted bytes; every read is bounds-checked and throws
/// ``ProtobufError`` instead of trapping. Groups (wire types 3 and 4) are refused.
public struct ProtobufReader: Sendable {
    private let bytes: [UInt8]
    /// Offset of the next byte.
    public private(set) var offset = 0

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads one varint.
    public mutating func readVarint() throws(ProtobufError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw ProtobufError(offset: start, reason: .truncated) }
            let b = bytes[offset]
            offset += 1
            guard shift < 64, shift < 63 || b & 0x7E == 0 else {
                throw ProtobufError(offset: start, reason: .malformedVarint)
            }
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// Reads the next field, or returns nil at the end of the message.
    public mutating func next() throws(ProtobufError) -> ProtobufField? {
        guard !isAtEnd else { return nil }
        let start = offset
        let tag = try readVarint()
        let number = tag >> 3
        guard number > 0, number <= 0x1FFF_FFFF else { throw ProtobufError(offset: start, reason: .invalidFieldNumber) }
        let field = UInt32(number)
        let typeCode = UInt8(tag & 7)
        guard let wireType = ProtobufWireType(rawValue: typeCode) else {
            throw ProtobufError(offset: start, fieldNumber: field, reason: .unsupportedWireType(typeCode))
        }
        var integer: UInt64 = 0
        var payload: [UInt8] = []
        do throws(ProtobufError) {
            switch wireType {
            case .varint:
                integer = try readVarint()
            case .fixed64:
                integer = try readLittleEndian(8)
            case .fixed32:
                integer = try readLittleEndian(4)
            case .lengthDelimited:
                let length = try readVarint()
                guard length <= UInt64(bytes.count - offset) else {
                    throw ProtobufError(offset: start, fieldNumber: field, reason: .truncated)
                }
                payload = Array(bytes[offset..<offset + Int(length)])
                offset += Int(length)
            }
        } catch {
            throw ProtobufError(offset: start, fieldNumber: field, reason: error.reason)
        }
        return ProtobufField(
            number: field, wireType: wireType, integer: integer, payload: payload, raw: Array(bytes[start..<offset]),
            offset: start)
    }

    private mutating func readLittleEndian(_ count: Int) throws(ProtobufError) -> UInt64 {
        guard bytes.count - offset >= count else { throw ProtobufError(offset: offset, reason: .truncated) }
        var v: UInt64 = 0
        for i in 0..<count { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += count
        return v
    }

    /// Every field of `bytes`, in order.
    /// - Throws: the first ``ProtobufError``.
    public static func fields(of bytes: [UInt8]) throws(ProtobufError) -> [ProtobufField] {
        var reader = ProtobufReader(bytes)
        var fields: [ProtobufField] = []
        while let f = try reader.next() { fields.append(f) }
        return fields
    }
}

extension ProtobufField {
    /// Throws unless the field has wire type `expected`.
    func require(_ expected: ProtobufWireType) throws(ProtobufError) {
        guard wireType == expected else {
            throw ProtobufError(
                offset: offset, fieldNumber: number,
                reason: .wrongWireType(expected: expected.rawValue, found: wireType.rawValue))
        }
    }
}
