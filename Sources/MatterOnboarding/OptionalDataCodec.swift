/// The Matter TLV of a QR code's optional data (Matter Core Specification, section 5.1.5 and
/// Appendix A): one anonymous structure whose members have context tags and hold strings or integers.
///
/// Decoding keeps the string and integer members in order and skips members of other types (booleans,
/// floats, byte strings, nulls, containers), as the CHIP SDK does; it refuses anything malformed,
/// a member without a context tag, a tag that appears twice and bytes after the structure. Encoding
/// writes each integer in its smallest width and each string with the smallest length field.
enum OptionalDataCodec {
    /// How deep containers inside the structure are followed when skipped.
    static let maximumDepth = 8

    /// Control byte of an anonymous structure.
    private static let anonymousStructure: UInt8 = 0x15
    /// Control byte of the end of a container.
    private static let endOfContainer: UInt8 = 0x18
    /// Tag control of a context tag, in the top 3 bits of a control byte.
    private static let contextTag: UInt8 = 1 << 5

    /// The string and integer members of the structure in `bytes`, in order.
    /// - Throws: ``OptionalDataError`` with the offset in `bytes`.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(OptionalDataError) -> [OptionalDataElement] {
        var reader = Reader(bytes: bytes)
        let first = try reader.byte()
        guard first == anonymousStructure else {
            throw OptionalDataError(offset: 0, reason: .notAnAnonymousStructure(first))
        }
        var elements: [OptionalDataElement] = []
        var seen = Set<UInt8>()
        while true {
            let start = reader.offset
            let control = try reader.byte()
            if control == endOfContainer { break }
            guard control & 0xE0 == contextTag else {
                throw OptionalDataError(offset: start, reason: .notAContextTag(control))
            }
            let tag = try reader.byte()
            guard seen.insert(tag).inserted else { throw OptionalDataError(offset: start, reason: .duplicateTag(tag)) }
            let type = control & 0x1F
            switch type {
            case 0x00...0x03:
                let width = 1 << Int(type)
                let raw = try reader.littleEndian(width)
                let shift = UInt64(64 - 8 * width)
                elements.append(OptionalDataElement(tag: tag, value: .signedInteger(Int64(bitPattern: raw << shift) >> shift)))
            case 0x04...0x07:
                elements.append(OptionalDataElement(tag: tag, value: .unsignedInteger(try reader.littleEndian(1 << Int(type - 4)))))
            case 0x0C...0x0F:
                let length = try reader.littleEndian(1 << Int(type - 0x0C))
                let utf8 = try reader.bytes(length)
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw OptionalDataError(offset: start, reason: .invalidUTF8(tag: tag))
                }
                elements.append(OptionalDataElement(tag: tag, value: .string(text)))
            default:
                try reader.skipValue(type: type, depth: 0, at: start)
            }
        }
        guard reader.remaining == 0 else {
            throw OptionalDataError(offset: reader.offset, reason: .trailingBytes(reader.remaining))
        }
        return elements
    }

    /// The structure holding `elements`, in order.
    static func encode(_ elements: [OptionalDataElement]) -> [UInt8] {
        var out: [UInt8] = [anonymousStructure]
        for element in elements {
            switch element.value {
            case .signedInteger(let v):
                let width = v == Int64(Int8(truncatingIfNeeded: v)) ? 1
                    : v == Int64(Int16(truncatingIfNeeded: v)) ? 2 : v == Int64(Int32(truncatingIfNeeded: v)) ? 4 : 8
                out += [contextTag | typeCode(width), element.tag]
                append(UInt64(bitPattern: v), width: width, to: &out)
            case .unsignedInteger(let v):
                let width = smallestWidth(v)
                out += [contextTag | (0x04 + typeCode(width)), element.tag]
                append(v, width: width, to: &out)
            case .string(let s):
                let utf8 = Array(s.utf8)
                let width = smallestWidth(UInt64(utf8.count))
                out += [contextTag | (0x0C + typeCode(width)), element.tag]
                append(UInt64(utf8.count), width: width, to: &out)
                out += utf8
            }
        }
        out.append(endOfContainer)
        return out
    }

    /// The fewest bytes, 1, 2, 4 or 8, that hold `v`.
    private static func smallestWidth(_ v: UInt64) -> Int { v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8 }

    /// The low bits of a type code for a width of 1, 2, 4 or 8 bytes: 0, 1, 2 or 3.
    private static func typeCode(_ width: Int) -> UInt8 { UInt8(width.trailingZeroBitCount) }

    /// Appends the low `width` bytes of `value`, little-endian.
    private static func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for i in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    /// A cursor over the optional data; every read is bounds-checked.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func byte() throws(OptionalDataError) -> UInt8 {
            guard remaining >= 1 else { throw OptionalDataError(offset: offset, reason: .truncated) }
            defer { offset += 1 }
            return bytes[bytes.startIndex + offset]
        }

        mutating func bytes(_ count: UInt64) throws(OptionalDataError) -> ArraySlice<UInt8> {
            guard count <= UInt64(remaining) else { throw OptionalDataError(offset: offset, reason: .truncated) }
            let start = bytes.startIndex + offset
            offset += Int(count)
            return bytes[start..<start + Int(count)]
        }

        mutating func littleEndian(_ width: Int) throws(OptionalDataError) -> UInt64 {
            var value: UInt64 = 0
            for (i, b) in try bytes(UInt64(width)).enumerated() { value |= UInt64(b) << (8 * i) }
            return value
        }

        /// Skips the value of an element of `type` whose control byte and tag were read.
        mutating func skipValue(type: UInt8, depth: Int, at start: Int) throws(OptionalDataError) {
            switch type {
            case 0x00...0x07: _ = try bytes(UInt64(1 << Int(type & 0x03)))
            case 0x08, 0x09, 0x14: break
            case 0x0A: _ = try bytes(4)
            case 0x0B: _ = try bytes(8)
            case 0x0C...0x13: _ = try bytes(try littleEndian(1 << Int((type - 0x0C) & 0x03)))
            case 0x15...0x17:
                guard depth < OptionalDataCodec.maximumDepth else {
                    throw OptionalDataError(offset: start, reason: .nestedTooDeep)
                }
                while true {
                    let inner = offset
                    let control = try byte()
                    if control == OptionalDataCodec.endOfContainer { return }
                    _ = try bytes(UInt64(Self.tagLengths[Int(control >> 5)]))
                    try skipValue(type: control & 0x1F, depth: depth + 1, at: inner)
                }
            default: throw OptionalDataError(offset: start, reason: .reservedElementType(type))
            }
        }

        /// The bytes a tag takes for each tag control 0 to 7.
        private static let tagLengths = [0, 1, 2, 4, 2, 4, 6, 8]
    }
}
