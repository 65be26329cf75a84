/// otbr-agent's `FeatureFlagListData` property: the serialized `otbr.FeatureFlagList` (proto2,
/// ot-br-posix `src/proto/feature_flag.proto`).
///
/// Writing it applies every flag: an absent `enable_nat64` or `enable_ephemeralkey` means *false* (their
/// proto defaults), so writing a list without them turns NAT64 and ePSKc off. Use
/// ``BorderRouterAgent/updateFeatureFlags(_:)``, which reads, fills those from the agent's current
/// state when absent, and writes back.
///
/// Decoding follows the agent's protobuf library (C++, lite runtime, proto2), so that what this type
/// writes back is what the agent would: a known field is read, the last occurrence winning; a field
/// this type does not know, a known field with another wire type, and a `detailed_logging_level` that is
/// not a `ProtoLogLevel` (0–8, a closed proto2 enum) are kept byte-exact, in order, after the known
/// fields.
public struct FeatureFlagList: Hashable, Sendable {
    /// Field 1, `enable_nat64`.
    public var enableNat64: Bool?
    /// Field 2, `enable_detailed_logging`.
    public var enableDetailedLogging: Bool?
    /// Field 3, `detailed_logging_level` (`otbr.ProtoLogLevel`, 0–8).
    public var detailedLoggingLevel: UInt32?
    /// Field 4, `enable_trel`.
    public var enableTrel: Bool?
    /// Field 5, `enable_dns_upstream_query`.
    public var enableDnsUpstreamQuery: Bool?
    /// Field 6, `enable_dhcp6_pd`.
    public var enableDhcp6PD: Bool?
    /// Field 7, `enable_link_metrics_manager`.
    public var enableLinkMetricsManager: Bool?
    /// Field 8, `enable_ephemeralkey`.
    public var enableEphemeralKey: Bool?
    /// Fields of other numbers, exactly as received.
    public var unknownFields: [UInt8]

    /// An empty list (every flag absent), as a factory-new agent reports it.
    public init() { unknownFields = [] }

    /// The values of `otbr.ProtoLogLevel`, from `PROTO_LOG_UNSPECIFIED` to `PROTO_LOG_DEBUG` (a varint is
    /// read as 32 bits before the check, as protobuf reads an enum).
    public static let logLevels: ClosedRange<UInt32> = 0...8

    /// Decodes the serialized message (an empty byte string is an empty list).
    /// - Throws: ``ProtobufError`` for bytes that are not a protobuf message.
    public init(serialized bytes: [UInt8]) throws(ProtobufError) {
        self.init()
        for field in try ProtobufReader.fields(of: bytes) {
            guard (1...8).contains(field.number), field.wireType == .varint,
                field.number != 3 || Self.logLevels.contains(field.uint32)
            else {
                unknownFields += field.raw
                continue
            }
            switch field.number {
            case 1: enableNat64 = field.bool
            case 2: enableDetailedLogging = field.bool
            case 3: detailedLoggingLevel = field.uint32
            case 4: enableTrel = field.bool
            case 5: enableDnsUpstreamQuery = field.bool
            case 6: enableDhcp6PD = field.bool
            case 7: enableLinkMetricsManager = field.bool
            default: enableEphemeralKey = field.bool
            }
        }
    }

    /// The serialized message: known fields in field order, then the unknown ones.
    public func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        if let enableNat64 { w.write(1, bool: enableNat64) }
        if let enableDetailedLogging { w.write(2, bool: enableDetailedLogging) }
        if let detailedLoggingLevel { w.write(3, varint: UInt64(detailedLoggingLevel)) }
        if let enableTrel { w.write(4, bool: enableTrel) }
        if let enableDnsUpstreamQuery { w.write(5, bool: enableDnsUpstreamQuery) }
        if let enableDhcp6PD { w.write(6, bool: enableDhcp6PD) }
        if let enableLinkMetricsManager { w.write(7, bool: enableLinkMetricsManager) }
        if let enableEphemeralKey { w.write(8, bool: enableEphemeralKey) }
        w.writeRaw(unknownFields)
        return w.bytes
    }
}
