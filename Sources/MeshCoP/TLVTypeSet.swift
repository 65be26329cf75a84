/// A set of TLV types as a 256-bit bitmap: no hashing and no allocation, for the decoder's hot path.
struct TLVTypeSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Adds `type`; returns false when it was already there.
    mutating func insert(_ type: TLVType) -> Bool {
        let bit = UInt64(1) << (type.rawValue & 63)
        let was: UInt64
        switch type.rawValue >> 6 {
        case 0: was = words.0; words.0 |= bit
        case 1: was = words.1; words.1 |= bit
        case 2: was = words.2; words.2 |= bit
        default: was = words.3; words.3 |= bit
        }
        return was & bit == 0
    }

    /// Whether `type` is in the set.
    func contains(_ type: TLVType) -> Bool {
        let bit = UInt64(1) << (type.rawValue & 63)
        switch type.rawValue >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }
}
