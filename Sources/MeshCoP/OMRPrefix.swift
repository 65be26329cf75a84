/// The favoured off-mesh-routable prefix a border router advertises (TXT key `omr`): one byte of
/// prefix length, then the ⌈length/8⌉ prefix bytes, e.g. `40 fd20be89495a0001` = fd20:be89:495a:1::/64.
public struct OMRPrefix: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The prefix length in bits, 0–128.
    public let length: UInt8
    /// The ⌈length/8⌉ prefix bytes.
    public let bytes: [UInt8]

    /// Decodes the TXT value.
    /// - Throws: ``ValueDecodingError`` when it is empty, the length exceeds 128 or the byte count
    ///   does not match the length.
    public init(txtValue: [UInt8]) throws(ValueDecodingError) {
        guard let length = txtValue.first else { throw .tooShort(0, minimum: 1) }
        guard length <= 128 else { throw .invalid("prefix length \(length) exceeds 128") }
        let needed = (Int(length) + 7) / 8
        guard txtValue.count - 1 == needed else { throw .wrongLength(txtValue.count, expected: [1 + needed]) }
        self.length = length
        bytes = Array(txtValue.dropFirst())
    }

    /// The TXT value: length byte, then the prefix bytes.
    public var txtValue: [UInt8] { [length] + bytes }

    /// "fd20:be89:495a:1::/64".
    public var description: String {
        IPv6Text.format(bytes + [UInt8](repeating: 0, count: 16 - bytes.count)) + "/\(length)"
    }

    /// Decodes a JSON string such as "fd20:be89:495a:1::/64".
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: "/")
        guard parts.count == 2, let length = UInt8(parts[1]), length <= 128,
              let address = IPv6Text.parse(parts[0])
        else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "an OMR prefix looks like fd20:be89:495a:1::/64"))
        }
        self.length = length
        bytes = Array(address.prefix((Int(length) + 7) / 8))
    }

    /// Encodes a JSON string such as "fd20:be89:495a:1::/64".
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
