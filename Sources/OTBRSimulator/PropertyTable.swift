import DBus

/// One property of `io.openthread.BorderRouter` as the simulator declares it for introspection.
struct DeclaredProperty: Sendable {
    let name: MemberName
    let type: SignatureType
    let writable: Bool
    let emitsChanged: Property.ChangeSignal
}

/// Every property the simulator declares: those of ot-br-posix's `introspect.xml` with the XML's
/// signatures, except where the code differs (`../otbr/README.md` 1.5): `LinkCounters` has the 32-field
/// MAC counters type, `PartitionID` and `ChannelMonitorAllChannelQualities` are the registered names,
/// `ExternalRoutes` is an array, `MdnsTelemetryInfo` is one struct, `ActiveDatasetTlvs` emits
/// `PropertiesChanged`. `NetworkKey` and `Ip6Counters` have getters in the code but are missing from the
/// XML; they are declared too. `Dhcp6PdState` is only ever signalled (no getter) and is not declared.
enum PropertyTable {
    private static func t(_ text: String) -> SignatureType {
        // The literals below are valid signatures of one complete type.
        (try? Signature(text))?.types.first ?? .string
    }

    private static func p(_ name: MemberName, _ type: String, writable: Bool = false, emits: Property.ChangeSignal = .false)
        -> DeclaredProperty
    {
        DeclaredProperty(name: name, type: t(type), writable: writable, emitsChanged: emits)
    }

    /// The 32 `uint32` of `otMacCounters`.
    static let macCountersType = "(" + String(repeating: "u", count: 32) + ")"

    static let all: [DeclaredProperty] = [
        p("EphemeralKeyEnabled", "b", writable: true),
        p("MeshLocalPrefix", "ay", writable: true),
        p("LinkMode", "(bbb)", writable: true),
        p("DeviceRole", "s", emits: .true),
        p("NetworkName", "s"),
        p("PanId", "q"),
        p("ExtPanId", "t"),
        p("Channel", "q"),
        p("CcaFailureRate", "q"),
        p("MacCounters", macCountersType),
        p("LinkCounters", macCountersType),
        p("LinkSupportedChannelMask", "u"),
        p("LinkPreferredChannelMask", "u"),
        p("Rloc16", "q"),
        p("ExtendedAddress", "t"),
        p("RouterID", "y"),
        p("LeaderData", "(uyyyy)"),
        p("NetworkData", "ay"),
        p("StableNetworkData", "ay"),
        p("LocalLeaderWeight", "y"),
        p("ChannelMonitorSampleCount", "u"),
        p("ChannelMonitorAllChannelQualities", "a(yq)"),
        p("ChildTable", "a(tuuqqyyyyqqbbbb)"),
        p("NeighborTable", "a(tuquuyyyqqqbbbb)"),
        p("PartitionID", "u"),
        p("InstantRssi", "y"),
        p("RadioTxPower", "y"),
        p("ExternalRoutes", "a((ayy)qybb)"),
        p("OnMeshPrefixes", "a((ayy)qybbbbbbbbb)"),
        p("ActiveDatasetTlvs", "ay", writable: true, emits: .true),
        p("PendingDatasetTlvs", "ay"),
        p("FeatureFlagListData", "ay", writable: true),
        p("RadioRegion", "s", writable: true),
        p("SrpServerInfo", "(yqy(uutttt)(uutttt)(uuuuuu))"),
        p("DnssdCounters", "(uuuuuuu)"),
        p("MdnsTelemetryInfo", "((uuuuuuuu)(uuuuuuuu)(uuuuuuuu)(uuuuuuuu)uuuu)"),
        p("OtbrVersion", "s"),
        p("OtHostVersion", "s"),
        p("OtRcpVersion", "s"),
        p("ThreadVersion", "q"),
        p("Eui64", "t"),
        p("BorderAgentId", "ay"),
        p("RadioSpinelMetrics", "(uuuu)"),
        p("RcpInterfaceMetrics", "(yttttttt)"),
        p("Uptime", "t"),
        p("RadioCoexMetrics", "(uuuuuuuuuuuuuuuuuub)"),
        p("Nat64State", "(ss)"),
        p("Nat64Mappings", "a(tayayu((tttt)(tttt)(tttt)(tttt)))"),
        p("Nat64ProtocolCounters", "((tttt)(tttt)(tttt)(tttt))"),
        p("Nat64ErrorCounters", "((tt)(tt)(tt)(tt))"),
        p("Nat64Cidr", "s", writable: true),
        p("BorderRoutingCounters", "((tt)(tt)(tt)(tt)uuuuuu)"),
        p("InfraLinkInfo", "(sbbbuuu)"),
        p("TrelInfo", "(bq(ttttt))"),
        p("MultiAilDetected", "b"),
        p("DnsUpstreamQueryState", "b", writable: true),
        p("TelemetryData", "ay"),
        p("Capabilities", "ay"),
        p("NetworkKey", "ay"),
        p("Ip6Counters", "(uuuu)"),
    ]

    /// The declared type of `name`, if declared.
    static func type(of name: String) -> SignatureType? { all.first { $0.name.rawValue == name }?.type }
}

extension DBusValue {
    /// The all-zero value of `type`: zero numbers, false, empty strings and containers.
    static func zero(of type: SignatureType) -> DBusValue {
        switch type {
        case .byte: .byte(0)
        case .boolean: .bool(false)
        case .int16: .int16(0)
        case .uint16: .uint16(0)
        case .int32, .unixFD: .int32(0)
        case .uint32: .uint32(0)
        case .int64: .int64(0)
        case .uint64: .uint64(0)
        case .double: .double(0)
        case .string: .string("")
        case .objectPath: .objectPath(.root)
        case .signature: .signature(.empty)
        case .variant: .variant(.byte(0))
        case .array(.byte): .bytes([])
        case .array(let element): .array(element: element, [])
        case .dictionary(let k, let v): .dictionary(key: k, value: v, [])
        case .structure(let fields): .structure(fields.map { zero(of: $0) })
        }
    }
}
