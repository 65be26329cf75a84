/// One TLV of an operational dataset, typed when this module models its type.
public enum DatasetTLV: Hashable, Sendable {
    /// Active Timestamp (14).
    case activeTimestamp(Timestamp)
    /// Pending Timestamp (51).
    case pendingTimestamp(Timestamp)
    /// Delay Timer (52).
    case delayTimer(DelayTimer)
    /// Channel (0).
    case channel(Channel)
    /// Wake-up Channel (74), same format as Channel.
    case wakeUpChannel(Channel)
    /// Channel Mask (53).
    case channelMask(ChannelMask)
    /// PAN ID (1).
    case panID(PANID)
    /// Extended PAN ID (2).
    case extendedPANID(ExtendedPANID)
    /// Network Name (3).
    case networkName(NetworkName)
    /// PSKc (4).
    case pskc(PSKc)
    /// Network Key (5).
    case networkKey(NetworkKey)
    /// Mesh-Local Prefix (7).
    case meshLocalPrefix(MeshLocalPrefix)
    /// Security Policy (12).
    case securityPolicy(SecurityPolicy)
    /// Any other TLV, kept byte-exact: unknown types and known types without a typed value here
    /// (e.g. Network Key Sequence Counter). Use the typed cases for the types above; a typed type put
    /// here is encoded as given and checked only by validation.
    case other(type: TLVType, value: [UInt8])

    /// Decodes the value of a TLV of `type`: typed for the modelled types, ``other(type:value:)``
    /// otherwise.
    /// - Throws: ``ValueDecodingError`` when the value is not valid for its type.
    public init(type: TLVType, value: [UInt8]) throws(ValueDecodingError) {
        switch type {
        case .activeTimestamp: self = .activeTimestamp(try Timestamp(tlvValue: value))
        case .pendingTimestamp: self = .pendingTimestamp(try Timestamp(tlvValue: value))
        case .delayTimer: self = .delayTimer(try DelayTimer(tlvValue: value))
        case .channel: self = .channel(try Channel(tlvValue: value))
        case .wakeUpChannel: self = .wakeUpChannel(try Channel(tlvValue: value))
        case .channelMask: self = .channelMask(try ChannelMask(tlvValue: value))
        case .panID: self = .panID(try PANID(tlvValue: value))
        case .extendedPANID: self = .extendedPANID(try ExtendedPANID(tlvValue: value))
        case .networkName: self = .networkName(try NetworkName(tlvValue: value))
        case .pskc: self = .pskc(try PSKc(tlvValue: value))
        case .networkKey: self = .networkKey(try NetworkKey(tlvValue: value))
        case .meshLocalPrefix: self = .meshLocalPrefix(try MeshLocalPrefix(tlvValue: value))
        case .securityPolicy: self = .securityPolicy(try SecurityPolicy(tlvValue: value))
        default: self = .other(type: type, value: value)
        }
    }

    /// The TLV type.
    public var type: TLVType {
        switch self {
        case .activeTimestamp: .activeTimestamp
        case .pendingTimestamp: .pendingTimestamp
        case .delayTimer: .delayTimer
        case .channel: .channel
        case .wakeUpChannel: .wakeUpChannel
        case .channelMask: .channelMask
        case .panID: .panID
        case .extendedPANID: .extendedPANID
        case .networkName: .networkName
        case .pskc: .pskc
        case .networkKey: .networkKey
        case .meshLocalPrefix: .meshLocalPrefix
        case .securityPolicy: .securityPolicy
        case .other(let type, _): type
        }
    }

    /// The value bytes.
    public var value: [UInt8] {
        switch self {
        case .activeTimestamp(let v), .pendingTimestamp(let v): v.tlvValue
        case .delayTimer(let v): v.tlvValue
        case .channel(let v), .wakeUpChannel(let v): v.tlvValue
        case .channelMask(let v): v.tlvValue
        case .panID(let v): v.tlvValue
        case .extendedPANID(let v): v.tlvValue
        case .networkName(let v): v.tlvValue
        case .pskc(let v): v.tlvValue
        case .networkKey(let v): v.tlvValue
        case .meshLocalPrefix(let v): v.tlvValue
        case .securityPolicy(let v): v.tlvValue
        case .other(_, let value): value
        }
    }

    /// The typed form of an ``other(type:value:)`` whose type is modelled and whose value decodes;
    /// otherwise `self`.
    public var normalized: DatasetTLV {
        guard case .other(let type, let value) = self, let typed = try? DatasetTLV(type: type, value: value) else {
            return self
        }
        return typed
    }

    /// True for the secret TLVs (PSKc, Network Key).
    public var isSecret: Bool { type == .pskc || type == .networkKey }
}
