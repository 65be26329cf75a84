/// otbr-agent's `Capabilities` property: the serialized `otbr.Capabilities` (proto2,
/// ot-br-posix `src/proto/capabilities.proto`), which says what the agent was built with.
///
/// Fields this type does not know are kept byte-exact and written back after the known ones.
public struct Capabilities: Hashable, Sendable, CustomStringConvertible {
    /// Field 1, `nat64` (`OTBR_ENABLE_NAT64`); nil when absent.
    public var nat64: Bool?
    /// Field 2, `dhcp6_pd` (`OTBR_ENABLE_DHCP6_PD`); nil when absent.
    public var dhcp6PD: Bool?
    /// Fields of other numbers, exactly as received.
    public var unknownFields: [UInt8]

    /// Capabilities with the given fields.
    public init(nat64: Bool? = nil, dhcp6PD: Bool? = nil, unknownFields: [UInt8] = []) {
        self.nat64 = nat64
        self.dhcp6PD = dhcp6PD
        self.unknownFields = unknownFields
    }

    /// Decodes the serialized message.
    /// - Throws: ``ProtobufError`` for malformed bytes or a known field of the wrong wire type.
    public init(serialized bytes: [UInt8]) throws(ProtobufError) {
        self.init()
        for field in try ProtobufReader.fields(of: bytes) {
            switch field.number {
            case 1:
                try field.require(.varint)
                nat64 = field.bool
            case 2:
                try field.require(.varint)
                dhcp6PD = field.bool
            default:
                unknownFields += field.raw
            }
        }
    }

    /// The serialized message: known fields in field order, then the unknown ones.
    public func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        if let nat64 { w.write(1, bool: nat64) }
        if let dhcp6PD { w.write(2, bool: dhcp6PD) }
        w.writeRaw(unknownFields)
        return w.bytes
    }

    /// Whether the agent can provide NAT64 (absent counts as no).
    public var supportsNat64: Bool { nat64 ?? false }
    /// Whether the agent can provide DHCPv6 prefix delegation (absent counts as no).
    public var supportsDhcp6PD: Bool { dhcp6PD ?? false }

    /// "nat64 true, dhcp6_pd false".
    public var description: String {
        "nat64 \(nat64.map(String.init) ?? "absent"), dhcp6_pd \(dhcp6PD.map(String.init) ?? "absent")"
    }
}
