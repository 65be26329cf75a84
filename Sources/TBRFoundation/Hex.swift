/// Hexadecimal text ↔ bytes, the way Thread tools print datasets, keys and identifiers.
public enum Hex {
    /// Errors from ``Hex/decode(_:)``.
    public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text has an odd number of hex digits.
        case oddLength(Int)
        /// A character that is not a hex digit, and its 0-based position.
        case invalidCharacter(Character, position: Int)

        public var description: String {
            switch self {
            case .oddLength(let n): "hex text has an odd number of digits (\(n))"
            case .invalidCharacter(let c, let p): "character '\(c)' at position \(p) is not a hex digit"
            }
        }
    }

    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex of `bytes`, two digits per byte, no separators.
    @inlinable
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes of hex `text`. Accepts upper and lower case and an optional `0x` prefix; surrounding
    /// whitespace is ignored. Throws ``DecodeError`` for anything else.
    @inlinable
    public static func decode(_ text: some StringProtocol) throws(DecodeError) -> [UInt8] {
        var utf8 = Array(text.utf8)
        while let last = utf8.last, last == 0x20 || last == 0x0a || last == 0x0d || last == 0x09 { utf8.removeLast() }
        var start = 0
        while start < utf8.count, utf8[start] == 0x20 || utf8[start] == 0x0a || utf8[start] == 0x0d || utf8[start] == 0x09 {
            start += 1
        }
        if utf8.count - start >= 2, utf8[start] == 0x30, utf8[start + 1] | 0x20 == 0x78 { start += 2 }
        let count = utf8.count - start
        var out: [UInt8] = []
        out.reserveCapacity(count / 2)
        var high: UInt8 = 0
        for i in start..<utf8.count {
            guard let v = nibble(utf8[i]) else {
                let scalar = String(decoding: utf8[i...], as: UTF8.self).first ?? "?"
                throw .invalidCharacter(scalar, position: i)
            }
            if (i - start) % 2 == 0 { high = v } else { out.append(high << 4 | v) }
        }
        guard count % 2 == 0 else { throw .oddLength(count) }
        return out
    }

    @inlinable @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
