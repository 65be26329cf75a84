import TBRFoundation

/// A Thread operational dataset (Active or Pending): MeshCoP TLVs `[type u8][length u8][value]`
/// (Thread 1.4 §8.10; OpenThread `Dataset`).
///
/// The TLVs are kept in wire order, typed where this module models their type and byte-exact
/// otherwise, so `OperationalDataset(bytes: x).encoded() == x` for every valid `x`. Decoding is strict
/// (``init(bytes:)`` throws the first ``DatasetDecodingError``); ``validate(bytes:as:)`` scans leniently
/// and reports every problem. Two datasets are equal when they have the same TLVs in the same order
/// (so that equal datasets have equal encodings). Secrets are redacted in `description`, `dump()`, JSON and
/// ``render(revealSecrets:)`` unless asked for (see ``Secrets``).
public struct OperationalDataset: Hashable, Sendable {
    /// The largest encoded dataset, in bytes (`OT_OPERATIONAL_DATASET_MAX_LENGTH`).
    public static let maximumLength = 254

    /// The TLVs in wire order; each type appears at most once.
    public private(set) var tlvs: [DatasetTLV]

    /// An empty dataset.
    public init() { tlvs = [] }

    /// A dataset of `tlvs` in the given order; an ``DatasetTLV/other(type:value:)`` of a modelled type
    /// whose value decodes is stored typed (see ``DatasetTLV/normalized``).
    /// - Throws: ``DatasetDecodingError`` with reason ``DatasetDecodingError/Reason/duplicate(firstOffset:)``
    ///   when a type appears twice (offsets are those of the encoding).
    public init(tlvs: [DatasetTLV]) throws(DatasetDecodingError) {
        var offsets: [Int] = []
        var offset = 0
        for (i, tlv) in tlvs.enumerated() {
            if let first = tlvs[..<i].firstIndex(where: { $0.type == tlv.type }) {
                throw DatasetDecodingError(offset: offset, tlvType: tlv.type, reason: .duplicate(firstOffset: offsets[first]))
            }
            offsets.append(offset)
            offset += Self.encodedLength(of: tlv)
        }
        self.tlvs = tlvs.map(\.normalized)
    }

    /// Decodes TLV bytes strictly.
    /// - Throws: the first ``DatasetDecodingError`` in the bytes: a truncated TLV, an extended-length
    ///   TLV, a duplicate type, a malformed value, or more than 254 bytes.
    public init(bytes: [UInt8]) throws(DatasetDecodingError) {
        let scan = DatasetScanner.scan(bytes, stopAtFirstError: true)
        if let error = scan.errors.first { throw error }
        tlvs = scan.tlvs
    }

    /// Decodes TLVs written as hex (as `ot-ctl dataset active -x`, OTBR's REST API and Home Assistant
    /// write them).
    /// - Throws: ``DatasetDecodingError`` with reason ``DatasetDecodingError/Reason/notHex(_:)`` for
    ///   text that is not hex, otherwise as ``init(bytes:)``.
    public init(hex: String) throws(DatasetDecodingError) {
        let bytes: [UInt8]
        do throws(Hex.DecodeError) {
            bytes = try Hex.decode(hex)
        } catch {
            let position: Int = switch error {
            case .oddLength(let n): n
            case .invalidCharacter(_, let p): p
            }
            throw DatasetDecodingError(offset: position, tlvType: nil, reason: .notHex(error.description))
        }
        try self.init(bytes: bytes)
    }

    /// The TLV bytes, in order. A TLV value of 255 bytes or more (possible only through
    /// ``DatasetTLV/other(type:value:)``) is written in the extended form, which decoding rejects.
    public func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: OperationalDataset.maximumLength)
        for tlv in tlvs {
            let value = tlv.value
            w.write(tlv.type.rawValue)
            if value.count < 0xFF {
                w.write(UInt8(value.count))
            } else {
                w.write(0xFF)
                w.writeBigEndian(UInt16(clamping: value.count))
            }
            w.write(contentsOf: value.prefix(Int(UInt16.max)))
        }
        return w.bytes
    }

    /// The encoded TLVs as lower-case hex. This includes the secrets.
    public var hexString: String { Hex.encode(encoded()) }

    static func encodedLength(of tlv: DatasetTLV) -> Int {
        let n = tlv.value.count
        return n < 0xFF ? 2 + n : 4 + min(n, Int(UInt16.max))
    }

    // MARK: TLV access

    /// The TLV of `type`, or nil.
    public subscript(type: TLVType) -> DatasetTLV? { tlvs.first { $0.type == type } }

    /// Whether the dataset has a TLV of `type`.
    public func contains(_ type: TLVType) -> Bool { tlvs.contains { $0.type == type } }

    /// Puts `tlv` (``DatasetTLV/normalized``) in place of the TLV of the same type, or appends it.
    public mutating func set(_ tlv: DatasetTLV) {
        let tlv = tlv.normalized
        if let i = tlvs.firstIndex(where: { $0.type == tlv.type }) { tlvs[i] = tlv } else { tlvs.append(tlv) }
    }

    /// Removes the TLV of `type`, if any; the others keep their order.
    public mutating func remove(_ type: TLVType) { tlvs.removeAll { $0.type == type } }

    private mutating func update(_ type: TLVType, _ tlv: DatasetTLV?) {
        if let tlv { set(tlv) } else { remove(type) }
    }

    // MARK: typed values (nil when absent; setting nil removes the TLV, setting a value replaces it in
    // place or appends it)

    /// Active Timestamp (14).
    public var activeTimestamp: Timestamp? {
        get { for case .activeTimestamp(let v) in tlvs { return v }; return nil }
        set { update(.activeTimestamp, newValue.map(DatasetTLV.activeTimestamp)) }
    }
    /// Pending Timestamp (51).
    public var pendingTimestamp: Timestamp? {
        get { for case .pendingTimestamp(let v) in tlvs { return v }; return nil }
        set { update(.pendingTimestamp, newValue.map(DatasetTLV.pendingTimestamp)) }
    }
    /// Delay Timer (52).
    public var delayTimer: DelayTimer? {
        get { for case .delayTimer(let v) in tlvs { return v }; return nil }
        set { update(.delayTimer, newValue.map(DatasetTLV.delayTimer)) }
    }
    /// Channel (0).
    public var channel: Channel? {
        get { for case .channel(let v) in tlvs { return v }; return nil }
        set { update(.channel, newValue.map(DatasetTLV.channel)) }
    }
    /// Wake-up Channel (74).
    public var wakeUpChannel: Channel? {
        get { for case .wakeUpChannel(let v) in tlvs { return v }; return nil }
        set { update(.wakeUpChannel, newValue.map(DatasetTLV.wakeUpChannel)) }
    }
    /// Channel Mask (53).
    public var channelMask: ChannelMask? {
        get { for case .channelMask(let v) in tlvs { return v }; return nil }
        set { update(.channelMask, newValue.map(DatasetTLV.channelMask)) }
    }
    /// PAN ID (1).
    public var panID: PANID? {
        get { for case .panID(let v) in tlvs { return v }; return nil }
        set { update(.panID, newValue.map(DatasetTLV.panID)) }
    }
    /// Extended PAN ID (2).
    public var extendedPANID: ExtendedPANID? {
        get { for case .extendedPANID(let v) in tlvs { return v }; return nil }
        set { update(.extendedPANID, newValue.map(DatasetTLV.extendedPANID)) }
    }
    /// Network Name (3).
    public var networkName: NetworkName? {
        get { for case .networkName(let v) in tlvs { return v }; return nil }
        set { update(.networkName, newValue.map(DatasetTLV.networkName)) }
    }
    /// PSKc (4).
    public var pskc: PSKc? {
        get { for case .pskc(let v) in tlvs { return v }; return nil }
        set { update(.pskc, newValue.map(DatasetTLV.pskc)) }
    }
    /// Network Key (5).
    public var networkKey: NetworkKey? {
        get { for case .networkKey(let v) in tlvs { return v }; return nil }
        set { update(.networkKey, newValue.map(DatasetTLV.networkKey)) }
    }
    /// Mesh-Local Prefix (7).
    public var meshLocalPrefix: MeshLocalPrefix? {
        get { for case .meshLocalPrefix(let v) in tlvs { return v }; return nil }
        set { update(.meshLocalPrefix, newValue.map(DatasetTLV.meshLocalPrefix)) }
    }
    /// Security Policy (12).
    public var securityPolicy: SecurityPolicy? {
        get { for case .securityPolicy(let v) in tlvs { return v }; return nil }
        set { update(.securityPolicy, newValue.map(DatasetTLV.securityPolicy)) }
    }
    /// The TLVs without a typed value here (unknown types and unmodelled known types), in order.
    public var otherTLVs: [(type: TLVType, value: [UInt8])] {
        tlvs.compactMap { if case .other(let t, let v) = $0 { (t, v) } else { nil } }
    }
}

extension OperationalDataset: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A one-line summary without secrets, e.g.
    /// `OperationalDataset("OpenThreadDemo", channel 15 (page 0), PAN ID 0x1234, XPAN 1111111122222222, 10 TLVs)`.
    public var description: String {
        var parts: [String] = []
        if let n = networkName { parts.append("\"\(n.printable)\"") }
        if let c = channel { parts.append("channel \(c)") }
        if let p = panID { parts.append("PAN ID \(p)") }
        if let x = extendedPANID { parts.append("XPAN \(x)") }
        parts.append("\(tlvs.count) TLV\(tlvs.count == 1 ? "" : "s")")
        return "OperationalDataset(\(parts.joined(separator: ", ")))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the TLVs, whose secrets mirror as redacted.
    public var customMirror: Mirror { Mirror(self, children: ["tlvs": tlvs]) }
}
