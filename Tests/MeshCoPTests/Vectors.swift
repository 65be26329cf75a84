import TBRFoundation

/// Test vectors from /work/shared/vectors/README.md, as given.
enum Vectors {
    /// TV-DATASET A, "OpenThreadDemo" (105 bytes).
    static let datasetAHex =
        "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"
    static var datasetA: [UInt8] { bytes(datasetAHex) }

    /// Offsets of the TLVs of dataset A, with their types.
    static let datasetALayout: [(offset: Int, type: UInt8)] = [
        (0, 14), (10, 0), (15, 53), (23, 2), (33, 7), (43, 5), (61, 3), (77, 1), (81, 4), (99, 12),
    ]

    /// Dataset A with the Extended PAN ID TLV and Network Name TLV replaced, the way HA's DATASET_2 and
    /// DATASET_3 differ from DATASET_1.
    static func datasetA(extendedPANID: String, nameUTF8: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        let a = datasetA
        while i < a.count {
            let type = a[i], length = Int(a[i + 1])
            switch type {
            case 2: out += [2, 8] + bytes(extendedPANID)
            case 3: out += [3, UInt8(nameUTF8.count)] + nameUTF8
            default: out += a[i..<(i + 2 + length)]
            }
            i += 2 + length
        }
        return out
    }

    /// Hex text to bytes; the vectors are known to be hex.
    static func bytes(_ hex: String) -> [UInt8] {
        (try? Hex.decode(hex)) ?? []
    }

    /// One TLV's bytes.
    static func tlv(_ type: UInt8, _ value: [UInt8]) -> [UInt8] { [type, UInt8(value.count)] + value }
}
