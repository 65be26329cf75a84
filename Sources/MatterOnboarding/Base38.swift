/// Base38, the text encoding of Matter QR codes (Matter Core Specification, section 5.1.3.2): the 38
/// characters `0`–`9`, `A`–`Z`, `-` and `.`, all in the QR alphanumeric set.
///
/// Bytes are taken three at a time as a little-endian 24-bit number, written as 5 characters, least
/// significant digit first; a final 2 bytes become 4 characters and a final byte 2. So 11 bytes are
/// 3 × 5 + 4 = 19 characters.
public enum Base38 {
    /// The alphabet, in digit order: `0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.`.
    public static let alphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.".utf8)

    /// Why text is not Base38.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The character at `position` (0-based) is not in the alphabet.
        case invalidCharacter(Character, position: Int)
        /// The text ends with a group of 1 or 3 characters, which no number of bytes encodes to.
        case invalidLength(Int)
        /// The group starting at `position` encodes a number too large for its bytes.
        case chunkOverflow(position: Int)

        /// The error as one sentence.
        public var description: String {
            switch self {
            case .invalidCharacter(let c, let p):
                "character \(quoted(c)) at position \(p) is not one of 0-9, A-Z, '-' and '.'"
            case .invalidLength(let n):
                "\(n) characters cannot be Base38 (groups are 5 characters, the last one 5, 4 or 2)"
            case .chunkOverflow(let p):
                "the characters from position \(p) encode a number too large for their bytes"
            }
        }
    }

    /// Characters per group of 1, 2 and 3 bytes.
    private static let charactersForBytes = [0, 2, 4, 5]

    /// The value of each ASCII byte in the alphabet, 255 for the others.
    private static let digitValues: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, ascii) in alphabet.enumerated() { table[Int(ascii)] = UInt8(value) }
        return table
    }()

    /// `bytes` as Base38 text.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count / 3 + 1) * 5)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var value: UInt32 = 0
            var count = 0
            while count < 3, index != bytes.endIndex {
                value |= UInt32(bytes[index]) << (8 * count)
                count += 1
                index = bytes.index(after: index)
            }
            for _ in 0..<charactersForBytes[count] {
                out.append(alphabet[Int(value % 38)])
                value /= 38
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes that `text` encodes.
    /// - Throws: ``Error`` for a character outside the alphabet, a length no bytes encode to, or a
    ///   group whose number does not fit its bytes.
    public static func decode(_ text: some StringProtocol) throws(Error) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for (position, c) in text.enumerated() {
            guard let ascii = c.asciiValue, digitValues[Int(ascii)] != 255 else {
                throw .invalidCharacter(c, position: position)
            }
            values.append(digitValues[Int(ascii)])
        }
        let remainder = values.count % 5
        guard remainder != 1, remainder != 3 else { throw .invalidLength(values.count) }
        var out: [UInt8] = []
        out.reserveCapacity(values.count / 5 * 3 + 2)
        var start = 0
        while start < values.count {
            let length = min(5, values.count - start)
            let byteCount = length == 5 ? 3 : length == 4 ? 2 : 1
            var value: UInt32 = 0
            for i in stride(from: start + length - 1, through: start, by: -1) { value = value * 38 + UInt32(values[i]) }
            guard value < 1 << (8 * byteCount) else { throw .chunkOverflow(position: start) }
            for b in 0..<byteCount { out.append(UInt8(truncatingIfNeeded: value >> (8 * b))) }
            start += length
        }
        return out
    }
}
