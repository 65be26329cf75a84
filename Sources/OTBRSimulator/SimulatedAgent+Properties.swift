import DBus
import MeshCoP
import OpenThreadBR

/// The property getters and setters the RCP agent registers (`dbus_thread_object_rcp.cpp`), with the
/// values of a simulated radio. A name without a getter answers `NotFound` (as `MacCounters`,
/// `MeshLocalPrefix` and the XML-only names do on the real agent).
extension SimulatedAgent {
    static let otbrVersion = "0.3.0-otbr-sim"
    static let otHostVersion = "OPENTHREAD/otbr-sim; POSIX; simulated"
    static let otRcpVersion = "OPENTHREAD/otbr-sim; SIMULATION; simulated radio"
    static let defaultExtendedPANID: UInt64 = 0xDEAD_00BE_EF00_CAFE
    static let defaultNetworkKey: [UInt8] = [
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF,
    ]

    private var dataset: OperationalDataset? { persistent.activeDataset.flatMap(DatasetRules.decode) }

    private func zero(_ name: String) -> DBusValue { .zero(of: PropertyTable.type(of: name) ?? .string) }

    /// The value of property `name` (a getter may change state: `TelemetryData` consumes journeys).
    /// - Throws: the getter's error; `NotFound` for a name without a getter.
    func propertyValue(_ name: String) throws(OpenThreadError) -> DBusValue {
        let attached = runtime.role.isAttached
        let nat64Names: Set<String> = ["Nat64State", "Nat64Mappings", "Nat64ProtocolCounters", "Nat64ErrorCounters", "Nat64Cidr"]
        if nat64Names.contains(name), !capabilities.nat64 { throw .notImplemented }
        switch name {
        case "LinkMode": return .structure(runtime.linkMode.map { .bool($0) })
        case "DeviceRole": return .string(runtime.role.wireName)
        case "NetworkName": return .string(dataset?.networkName?.rawValue ?? "OpenThread")
        case "PanId": return .uint16(dataset?.panID?.rawValue ?? 0xFFFF)
        case "ExtPanId": return .uint64(dataset?.extendedPANID?.rawValue ?? Self.defaultExtendedPANID)
        case "Eui64": return .uint64(configuration.eui64.rawValue)
        case "Channel": return .uint16(dataset?.channel?.number ?? 11)
        case "NetworkKey": return .bytes(dataset?.networkKey?.bytes ?? Self.defaultNetworkKey)
        case "CcaFailureRate": return .uint16(radioHealth.ccaFailureRate)
        case "LinkCounters", "Ip6Counters", "RadioSpinelMetrics", "BorderRoutingCounters", "Nat64ProtocolCounters",
            "Nat64ErrorCounters", "MdnsTelemetryInfo":
            return zero(name)
        case "LinkSupportedChannelMask", "LinkPreferredChannelMask": return .uint32(radioChannels.supportedMask)
        case "Rloc16": return .uint16(ownRloc16)
        case "ExtendedAddress": return .uint64(persistent.extendedAddress)
        case "BorderAgentId": return .bytes(runtime.borderAgentID)
        case "RouterID":
            guard runtime.role == .router || runtime.role == .leader else { throw .invalidState }
            return .byte(runtime.routerID)
        case "LeaderData":
            guard attached else { throw .detached }
            return leaderData.dbusValue
        case "NetworkData": return .bytes(networkDataTLVs(stable: false))
        case "StableNetworkData": return .bytes(networkDataTLVs(stable: true))
        case "LocalLeaderWeight": return .byte(64)
        case "ChannelMonitorSampleCount": return .uint32(0)
        case "ChannelMonitorAllChannelQualities":
            return .array(element: .structure([.byte, .uint16]), (11...26).map { .structure([.byte($0), .uint16(0)]) })
        case "ChildTable": return childTableProperty
        case "NeighborTable": return neighborTableProperty
        case "Nat64Mappings": return zero(name)
        case "PartitionID": return .uint32(attached ? runtime.partitionID : 0)
        case "InstantRssi": return .byte(UInt8(bitPattern: -100))
        case "RadioTxPower": return .byte(0)
        case "ExternalRoutes": return networkDataProperty(onMesh: false)
        case "OnMeshPrefixes": return networkDataProperty(onMesh: true)
        case "ActiveDatasetTlvs":
            guard let tlvs = persistent.activeDataset else { throw .notFound }
            return .bytes(tlvs)
        case "PendingDatasetTlvs":
            guard let tlvs = pendingDatasetAsRead() else { throw .notFound }
            return .bytes(tlvs)
        case "FeatureFlagListData":
            guard configuration.featureFlagsBuiltIn else { throw .notImplemented }
            return .bytes(runtime.featureFlagBytes)
        case "RadioRegion": return .string(runtime.radioRegion)
        case "SrpServerInfo":
            guard case .structure(var fields) = zero(name) else { return zero(name) }
            fields[0] = .byte(attached ? 1 : 0)  // OT_SRP_SERVER_STATE_RUNNING when attached, else DISABLED
            fields[1] = .uint16(attached ? 53535 : 0)
            return .structure(fields)
        case "DnsUpstreamQueryState":
            guard configuration.dnsUpstreamBuiltIn else { throw .notImplemented }
            return .bool(runtime.dnsUpstreamEnabled)
        case "DnssdCounters", "RadioCoexMetrics": throw .notImplemented
        case "OtbrVersion": return .string(Self.otbrVersion)
        case "OtHostVersion": return .string(Self.otHostVersion)
        case "OtRcpVersion": return .string(radioHealth.rcpVersion)
        case "ThreadVersion": return .uint16(5)
        case "RcpInterfaceMetrics":
            guard case .structure(var fields) = zero(name) else { return zero(name) }
            fields[0] = .byte(1)  // OT_RCP_INTERFACE_TYPE_HDLC
            return .structure(fields)
        case "Uptime": return .uint64(UInt64(uptimeMs))
        case "Nat64State":
            let state = runtime.nat64Phase.state
            return .structure([.string(state.prefixManager.wireName), .string(state.translator.wireName)])
        case "Nat64Cidr": return .string(runtime.nat64CIDR)
        case "InfraLinkInfo":
            return .structure([.string(configuration.infraInterfaceName), .bool(true), .bool(true), .bool(true), .uint32(1), .uint32(0), .uint32(1)])
        case "TrelInfo": return zero(name)
        case "MultiAilDetected": return .bool(radioHealth.multiAilDetected)
        case "TelemetryData":
            guard configuration.telemetryBuiltIn else { throw .notImplemented }
            let journeys = runtime.epskc.history.retrieveCompletedJourneys()
            return .bytes(BorderAgentTelemetry(counters: runtime.epskc.counters, journeys: journeys).telemetryData())
        case "Capabilities": return .bytes(capabilities.message.serialized())
        case "EphemeralKeyEnabled":
            guard configuration.epskcBuiltIn else { throw .notFound }
            return .bool(runtime.epskc.state != .disabled)
        default:
            throw .notFound
        }
    }

    /// Writes property `name` (`Set`), with the setter's checks. `value` is the variant's content.
    /// - Throws: `NotFound` without a setter; `InvalidArgs` for a value of the wrong type or shape;
    ///   the setter's own errors.
    func setProperty(_ name: String, _ value: DBusValue) async throws(OpenThreadError) {
        switch name {
        case "MeshLocalPrefix":
            guard case .bytes(let b) = value, b.count == 8 else { throw .invalidArgs }
            guard runtime.role == .disabled else { throw .invalidState }
            runtime.meshLocalPrefix = b
        case "LinkMode":
            guard case .structure(let f) = value, f.count == 3, case .bool(let a) = f[0], case .bool(let b) = f[1],
                case .bool(let c) = f[2]
            else { throw .invalidArgs }
            runtime.linkMode = [a, b, c]
        case "ActiveDatasetTlvs":
            guard case .bytes(let tlvs) = value else { throw .invalidArgs }
            // The agent's quirk: too long a value returns success without storing anything.
            guard tlvs.count <= OperationalDataset.maximumLength else { return }
            guard tlvs.isEmpty || DatasetRules.decode(tlvs) != nil else { throw .invalidArgs }
            await storeActiveDataset(tlvs)
        case "FeatureFlagListData":
            // Without the build option the handler answers before it looks at the value.
            guard configuration.featureFlagsBuiltIn else { throw .notImplemented }
            guard case .bytes(let b) = value else { throw .invalidArgs }
            try await applyFeatureFlags(b)
        case "RadioRegion":
            guard case .string(let s) = value, s.utf8.count == 2 else { throw .invalidArgs }
            runtime.radioRegion = s
        case "DnsUpstreamQueryState":
            guard configuration.dnsUpstreamBuiltIn else { throw .notImplemented }
            guard case .bool(let on) = value else { throw .invalidArgs }
            runtime.dnsUpstreamEnabled = on
        case "Nat64Cidr":
            guard capabilities.nat64 else { throw .notImplemented }
            guard case .string(let s) = value, Self.isIPv4CIDR(s) else { throw .invalidArgs }
            runtime.nat64CIDR = s
        case "EphemeralKeyEnabled":
            guard configuration.epskcBuiltIn else { throw .notFound }
            guard case .bool(let on) = value else { throw .invalidArgs }
            applyTimer(runtime.epskc.setEnabled(on, now: uptimeMs))
        default:
            throw .notFound
        }
    }

    /// "a.b.c.d/n" with each octet 0–255 and n 0–32.
    static func isIPv4CIDR(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let bits = Int(parts[1]), (0...32).contains(bits) else { return false }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
    }
}
