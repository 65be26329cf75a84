/// The channels a network may use, per channel page (Channel Mask TLV 53).
///
/// Wire format: one or more entries `[page u8][mask length u8][mask]`. The mask bits are **reversed**
/// compared with OpenThread's in-memory mask: channel *n* is bit 7 − (*n* mod 8) of mask byte *n* / 8,
/// so wire `001fffe0` is channels 11–26 (OpenThread mask 0x07fff800). Pages this module does not know
/// are kept as they are; the supported pages (0 and 2) must have a 4-byte mask.
public struct ChannelMask: TLVValue, Codable, CustomStringConvertible {
    /// One page's mask.
    public struct Entry: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The channel page.
        public var page: UInt8
        /// The mask bytes as on the wire (bit-reversed; see ``ChannelMask``).
        public var mask: [UInt8]

        /// An entry with wire `mask` bytes. The mask must be at most 255 bytes to be encoded; longer
        /// masks are cut.
        public init(page: UInt8, mask: [UInt8]) {
            self.page = page
            self.mask = Array(mask.prefix(255))
        }

        /// A 4-byte entry for `channels` on `page`, or nil if a channel is above 31.
        public init?(page: UInt8, channels: some Sequence<UInt16>) {
            var mask = [UInt8](repeating: 0, count: 4)
            for c in channels {
                guard c < 32 else { return nil }
                mask[Int(c / 8)] |= 0x80 >> (c % 8)
            }
            self.init(page: page, mask: mask)
        }

        /// The channels whose bits are set, ascending.
        public var channels: [UInt16] {
            var out: [UInt16] = []
            for (i, byte) in mask.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (0x80 >> bit) != 0 { out.append(UInt16(i * 8 + bit)) }
            }
            return out
        }

        /// OpenThread's form of a 4-byte mask (bit *n* = channel *n*, e.g. 0x07fff800), or nil for other
        /// lengths.
        public var openThreadMask: UInt32? {
            guard mask.count == 4 else { return nil }
            var v: UInt32 = 0
            for c in channels { v |= 1 << c }
            return v
        }

        /// "page 0: 11–26".
        public var description: String { "page \(page): \(ChannelMask.ranges(channels))" }

        private enum CodingKeys: String, CodingKey { case page, channels }

        /// Decodes `{"page": 0, "channels": [11, 12, …]}` into a 4-byte mask, or a longer one when a
        /// channel is above 31.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            page = try c.decode(UInt8.self, forKey: .page)
            let channels = try c.decode([UInt16].self, forKey: .channels)
            guard let top = channels.max().map(Int.init), top < 255 * 8 else {
                mask = [0, 0, 0, 0]
                if !channels.isEmpty {
                    throw DecodingError.dataCorruptedError(
                        forKey: .channels, in: c, debugDescription: "channel numbers must be below 2040")
                }
                return
            }
            mask = [UInt8](repeating: 0, count: max(4, top / 8 + 1))
            for ch in channels { mask[Int(ch / 8)] |= 0x80 >> (ch % 8) }
        }

        /// Encodes `{"page": 0, "channels": [11, 12, …]}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(page, forKey: .page)
            try c.encode(channels, forKey: .channels)
        }
    }

    /// The entries in wire order.
    public var entries: [Entry]

    /// The pages whose masks must be 4 bytes (OpenThread's supported pages).
    static let fourByteMaskPages: Set<UInt8> = [0, 2]

    /// A mask with `entries`.
    public init(entries: [Entry]) { self.entries = entries }

    /// Page 0 channels 11–26, what a new network allows.
    public static let allPage0 = ChannelMask(entries: [Entry(page: 0, mask: [0x00, 0x1F, 0xFF, 0xE0])])

    /// Decodes one or more entries.
    /// - Throws: ``ValueDecodingError/tooShort(_:minimum:)`` for an empty value,
    ///   ``ValueDecodingError/truncatedChannelMaskEntry(offset:)`` or
    ///   ``ValueDecodingError/channelMaskLength(page:length:)``.
    public init(tlvValue: [UInt8]) throws(ValueDecodingError) {
        guard !tlvValue.isEmpty else { throw .tooShort(0, minimum: 2) }
        var entries: [Entry] = []
        var i = 0
        while i < tlvValue.count {
            guard tlvValue.count - i >= 2 else { throw .truncatedChannelMaskEntry(offset: i) }
            let page = tlvValue[i], length = Int(tlvValue[i + 1])
            guard tlvValue.count - i - 2 >= length else { throw .truncatedChannelMaskEntry(offset: i) }
            if Self.fourByteMaskPages.contains(page), length != 4 { throw .channelMaskLength(page: page, length: length) }
            entries.append(Entry(page: page, mask: Array(tlvValue[(i + 2)..<(i + 2 + length)])))
            i += 2 + length
        }
        self.entries = entries
    }

    /// The entries as on the wire.
    public var tlvValue: [UInt8] {
        var v: [UInt8] = []
        for e in entries {
            v.append(e.page)
            v.append(UInt8(e.mask.count))
            v.append(contentsOf: e.mask)
        }
        return v
    }

    /// The channels allowed on `page`, or nil when the mask has no entry for it.
    public func channels(onPage page: UInt8) -> [UInt16]? {
        entries.first { $0.page == page }?.channels
    }

    /// "page 0: 11–26", entries separated by "; ".
    public var description: String { entries.map(\.description).joined(separator: "; ") }

    /// Sorted channels as "11–26", "11, 13–15" or "none".
    static func ranges(_ channels: [UInt16]) -> String {
        guard !channels.isEmpty else { return "none" }
        var parts: [String] = []
        var start = channels[0], end = channels[0]
        func flush() { parts.append(start == end ? "\(start)" : end == start + 1 ? "\(start), \(end)" : "\(start)–\(end)") }
        for c in channels.dropFirst() {
            if c == end + 1 { end = c } else { flush(); start = c; end = c }
        }
        flush()
        return parts.joined(separator: ", ")
    }

    /// Decodes a JSON array of `{"page": 0, "channels": […]}` objects, or a bare number: an OpenThread
    /// page 0 mask (bit *n* = channel *n*, e.g. 134215680 = 0x07fff800) as OTBR's REST API writes it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let openThreadMask = try? c.decode(UInt32.self) {
            let channels = (0..<32).filter { openThreadMask & (1 << $0) != 0 }.map { UInt16($0) }
            entries = [Entry(page: 0, channels: channels)].compactMap { $0 }
            return
        }
        entries = try c.decode([Entry].self)
    }

    /// Encodes a JSON array of `{"page": 0, "channels": […]}` objects.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(entries)
    }
}
