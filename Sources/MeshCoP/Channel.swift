/// A radio channel: channel page and channel number (Channel TLV 0 and Wake-up Channel TLV 74).
///
/// Wire format: page (1 byte), channel (u16 big-endian). Page 0 is 2.4 GHz O-QPSK with channels
/// 11–26, the only page Thread border routers on Linux support.
public struct Channel: TLVValue, Comparable, Codable, CustomStringConvertible {
    /// The channel page.
    public var page: UInt8
    /// The channel number within the page.
    public var number: UInt16

    /// The 2.4 GHz channels of page 0.
    public static let page0Channels: ClosedRange<UInt16> = 11...26

    /// Channel `number` on `page` (page 0, 2.4 GHz, by default).
    public init(_ number: UInt16, page: UInt8 = 0) {
        self.page = page
        self.number = number
    }

    /// Decodes the 3-byte value.
    /// - Throws: ``ValueDecodingError/wrongLength(_:expected:)`` unless it is 3 bytes.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        try Self.requireLength(tlvValue, 3)
        page = tlvValue[0]
        number = UInt16(tlvValue[1]) << 8 | UInt16(tlvValue[2])
    }

    /// The 3-byte value.
    public var tlvValue: [UInt8] { [page, UInt8(number >> 8), UInt8(truncatingIfNeeded: number)] }

    /// True for page 0 channels 11–26.
    public var isSupported: Bool { page == 0 && Self.page0Channels.contains(number) }

    /// Why this channel cannot be used, or nil when it is supported.
    var unsupportedReason: String? {
        if page != 0 { return "channel page \(page) is not supported (only page 0, 2.4 GHz)" }
        if !Self.page0Channels.contains(number) { return "channel \(number) is outside 11–26 (page 0)" }
        return nil
    }

    /// "15 (page 0)".
    public var description: String { "\(number) (page \(page))" }

    /// Orders by the wire value.
    public static func < (a: Channel, b: Channel) -> Bool { (a.page, a.number) < (b.page, b.number) }

    private enum CodingKeys: String, CodingKey { case page, number }

    /// Decodes `{"page": 0, "number": 15}` (`page` defaults to 0), or a bare number for a page 0
    /// channel as OTBR's REST API writes it.
    public init(from decoder: any Decoder) throws {
        if let number = try? decoder.singleValueContainer().decode(UInt16.self) {
            self.init(number)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(UInt16.self, forKey: .number), page: try c.decodeIfPresent(UInt8.self, forKey: .page) ?? 0)
    }

    /// Encodes `{"page": 0, "number": 15}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(page, forKey: .page)
        try c.encode(number, forKey: .number)
    }
}
