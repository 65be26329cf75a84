import TBRFoundation

/// Walks dataset TLV bytes once, collecting typed TLVs with their offsets and every structural or
/// value error. Strict decoding stops at the first error; validation goes on to find them all.
enum DatasetScanner {
    /// What a scan found.
    struct Result {
        /// The TLVs that decoded, in order (a malformed or duplicate TLV is left out).
        var tlvs: [DatasetTLV] = []
        /// The offset of each TLV's type byte, parallel to ``tlvs``.
        var offsets: [Int] = []
        /// Every error, in offset order except that the size limit comes first.
        var errors: [DatasetDecodingError] = []
    }

    /// Scans `bytes`. With `stopAtFirstError` it returns as soon as one error is found. It never traps.
    static func scan(_ bytes: [UInt8], stopAtFirstError: Bool) -> Result {
        var result = Result()
        result.tlvs.reserveCapacity(16)
        if !stopAtFirstError { result.offsets.reserveCapacity(16) }
        if bytes.count > OperationalDataset.maximumLength {
            result.errors.append(DatasetDecodingError(
                offset: OperationalDataset.maximumLength, tlvType: nil, reason: .tooLong(bytes.count)))
            if stopAtFirstError { return result }
        }
        var seen = TLVTypeSet()
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            let start = reader.offset
            var type = TLVType(0)
            do throws(ByteReader.EndOfInput) {
                type = TLVType(try reader.readUInt8())
                let length = try reader.readUInt8()
                if length == 0xFF {
                    result.errors.append(DatasetDecodingError(offset: start, tlvType: type, reason: .extendedLength))
                    if stopAtFirstError { return result }
                    // Skip the extended TLV ([type][0xFF][u16 length][value]) to find what follows.
                    let extended = try reader.readBigEndian(UInt16.self)
                    _ = try reader.readBytes(Int(extended))
                    continue
                }
                let value = try reader.readBytes(Int(length))
                guard seen.insert(type) else {
                    result.errors.append(DatasetDecodingError(
                        offset: start, tlvType: type, reason: .duplicate(firstOffset: firstOffset(of: type, in: bytes))))
                    if stopAtFirstError { return result }
                    continue
                }
                do throws(ValueDecodingError) {
                    result.tlvs.append(try DatasetTLV(type: type, value: value))
                    result.offsets.append(start)
                } catch {
                    result.errors.append(DatasetDecodingError(offset: start, tlvType: type, reason: .invalidValue(error)))
                    if stopAtFirstError { return result }
                }
            } catch {
                // Only a read past the end lands here: the TLV at `start` is cut short, and nothing after
                // it can be found. An extended TLV already reported is not reported twice.
                if result.errors.last?.offset == start { return result }
                let reason: DatasetDecodingError.Reason =
                    error.offset == start + 1 ? .missingLength
                    : .truncatedValue(length: error.needed, available: error.available)
                result.errors.append(DatasetDecodingError(offset: start, tlvType: type, reason: reason))
                return result
            }
        }
        return result
    }

    /// The offset of the first TLV of `type` in `bytes`, which the scan has already walked.
    private static func firstOffset(of type: TLVType, in bytes: [UInt8]) -> Int {
        var i = 0
        while i + 1 < bytes.count, bytes[i] != type.rawValue || bytes[i + 1] == 0xFF {
            i += bytes[i + 1] == 0xFF && i + 3 < bytes.count ? 4 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])) : 2 + Int(bytes[i + 1])
        }
        return i
    }
}
