/// The fixed 88 bits of a QR code payload (Matter Core Specification, section 5.1.3.1), read and
/// written least significant bit first: field after field, each value's own bits from least to most
/// significant, bit `i` of the stream being bit `i % 8` of byte `i / 8`.
///
/// | bits | field |
/// |---|---|
/// | 0–2 | version (3) |
/// | 3–18 | vendor ID (16) |
/// | 19–34 | product ID (16) |
/// | 35–36 | commissioning flow (2) |
/// | 37–44 | discovery capabilities (8) |
/// | 45–56 | discriminator (12) |
/// | 57–83 | passcode (27) |
/// | 84–87 | padding, zero (4) |
struct PayloadBits {
    /// The bytes of the fixed fields: 11.
    static let byteCount = 11

    /// Field widths in bits, in order.
    enum Width {
        static let version = 3
        static let vendorID = 16
        static let productID = 16
        static let commissioningFlow = 2
        static let discoveryCapabilities = 8
        static let discriminator = 12
        static let passcode = 27
        static let padding = 4
    }

    /// The bytes written so far, or being read.
    private(set) var bytes: [UInt8]
    /// The next bit to read or write.
    private var position = 0

    /// An empty stream of 11 zero bytes to write into.
    init() { bytes = [UInt8](repeating: 0, count: Self.byteCount) }

    /// A stream that reads `bytes` (at least 11 of them) from the first bit.
    init(reading bytes: [UInt8]) {
        precondition(bytes.count >= Self.byteCount, "the fixed fields need 11 bytes")
        self.bytes = bytes
    }

    /// Reads the next `width` bits (at most 32) as a number.
    mutating func read(_ width: Int) -> UInt32 {
        precondition(width <= 32 && position + width <= Self.byteCount * 8, "read past the fixed fields")
        var value: UInt32 = 0
        for i in 0..<width where bytes[(position + i) / 8] & (1 << ((position + i) % 8)) != 0 {
            value |= 1 << i
        }
        position += width
        return value
    }

    /// Writes the low `width` bits of `value` (at most 32) as the next field.
    mutating func write(_ value: UInt32, _ width: Int) {
        precondition(width <= 32 && position + width <= Self.byteCount * 8, "write past the fixed fields")
        for i in 0..<width where value & (1 << i) != 0 {
            bytes[(position + i) / 8] |= 1 << ((position + i) % 8)
        }
        position += width
    }
}
