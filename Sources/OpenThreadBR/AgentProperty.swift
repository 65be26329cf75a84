public import DBus
public import MeshCoP

/// A property of `io.openthread.BorderRouter` with its Swift type: its name and how its value decodes.
///
/// Read one with ``BorderRouterAgent/read(_:)``, or several in one `GetProperties` call with
/// ``BorderRouterAgent/read(_:_:)``: `let (role, id) = try await agent.read(.deviceRole, .borderAgentID)`.
public struct AgentProperty<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The property's name on the wire, e.g. `DeviceRole`.
    public let name: String
    /// Converts the value (variant already unwrapped).
    let decode: @Sendable (DBusValue) throws(DBusValueError) -> Value

    /// A property `name` decoded by `decode`.
    public init(_ name: String, decode: @escaping @Sendable (DBusValue) throws(DBusValueError) -> Value) {
        self.name = name
        self.decode = decode
    }

    public var description: String { name }
}

extension AgentProperty where Value: DBusRepresentable {
    /// A property whose value is a plain D-Bus value of `Value`'s type.
    public init(_ name: String) {
        self.init(name) { (v) throws(DBusValueError) in try Value(dbusValue: v) }
    }
}

extension AgentProperty where Value == DBusValue {
    /// Any property, undecoded.
    public static func raw(_ name: String) -> AgentProperty<DBusValue> { AgentProperty(name) { $0 } }
}

extension AgentProperty where Value == DeviceRole {
    /// `DeviceRole` (s): `disabled`, `detached`, `child`, `router` or `leader`.
    public static var deviceRole: Self { Self("DeviceRole") { (v) throws(DBusValueError) in DeviceRole(wireName: try String(dbusValue: v)) } }
}

extension AgentProperty where Value == String {
    /// `NetworkName` (s). "OpenThread" on a factory-new agent.
    public static var networkName: Self { Self("NetworkName") }
    /// `OtbrVersion` (s): the ot-br-posix version.
    public static var otbrVersion: Self { Self("OtbrVersion") }
    /// `OtHostVersion` (s): the OpenThread host version.
    public static var otHostVersion: Self { Self("OtHostVersion") }
    /// `OtRcpVersion` (s): the radio co-processor's firmware version.
    public static var otRcpVersion: Self { Self("OtRcpVersion") }
    /// `Nat64Cidr` (s), e.g. "192.168.255.0/24".
    public static var nat64CIDR: Self { Self("Nat64Cidr") }
}

extension AgentProperty where Value == PANID {
    /// `PanId` (q). 0xFFFF on a factory-new agent.
    public static var panID: Self { Self("PanId") { (v) throws(DBusValueError) in PANID(try UInt16(dbusValue: v)) } }
}

extension AgentProperty where Value == ExtendedPANID {
    /// `ExtPanId` (t), its 8 bytes read big-endian.
    public static var extendedPANID: Self {
        Self("ExtPanId") { (v) throws(DBusValueError) in ExtendedPANID(try UInt64(dbusValue: v)) }
    }
}

extension AgentProperty where Value == UInt32 {
    /// `LinkSupportedChannelMask` (u): bit n set when the radio supports channel n (page 0).
    public static var linkSupportedChannelMask: Self { Self("LinkSupportedChannelMask") }
}

extension AgentProperty where Value == UInt16 {
    /// `Channel` (q). 11 on a factory-new agent.
    public static var channel: Self { Self("Channel") }
    /// `ThreadVersion` (q): 5 for Thread 1.4.
    public static var threadVersion: Self { Self("ThreadVersion") }
    /// `Rloc16` (q). 0xFFFE when not attached.
    public static var rloc16: Self { Self("Rloc16") }
    /// `CcaFailureRate` (q): the share of clear-channel assessments that failed, 0xFFFF = 100 %.
    public static var ccaFailureRate: Self { Self("CcaFailureRate") }
}

extension AgentProperty where Value == [UInt8] {
    /// `ActiveDatasetTlvs` (ay). Reading fails with `NotFound` when the agent has no active dataset.
    public static var activeDatasetTLVs: Self { Self("ActiveDatasetTlvs") }
    /// `PendingDatasetTlvs` (ay). Reading fails with `NotFound` when the agent has no pending dataset.
    public static var pendingDatasetTLVs: Self { Self("PendingDatasetTlvs") }
    /// `TelemetryData` (ay): serialized `threadnetwork.TelemetryData`. Reading it consumes completed
    /// ePSKc journeys. `NotImplemented` on agents built without the telemetry API.
    public static var telemetryData: Self { Self("TelemetryData") }
}

extension AgentProperty where Value == BorderAgentID {
    /// `BorderAgentId` (ay, 16 bytes): the `id` of the `_meshcop._udp` TXT record.
    public static var borderAgentID: Self {
        Self("BorderAgentId") { (v) throws(DBusValueError) in
            do { return try BorderAgentID(bytes: try [UInt8](dbusValue: v)) } catch {
                throw .invalid("BorderAgentId: \(error)")
            }
        }
    }
}

extension AgentProperty where Value == EUI64 {
    /// `Eui64` (t), its 8 bytes read big-endian.
    public static var eui64: Self { Self("Eui64") { (v) throws(DBusValueError) in EUI64(rawValue: try UInt64(dbusValue: v)) } }
}

extension AgentProperty where Value == ExtendedAddress {
    /// `ExtendedAddress` (t), its 8 bytes read big-endian (the `xa` TXT key).
    public static var extendedAddress: Self {
        Self("ExtendedAddress") { (v) throws(DBusValueError) in ExtendedAddress(rawValue: try UInt64(dbusValue: v)) }
    }
}

extension AgentProperty where Value == Bool {
    /// `EphemeralKeyEnabled` (b): whether the ePSKc feature is on (state other than DISABLED).
    public static var ephemeralKeyEnabled: Self { Self("EphemeralKeyEnabled") }
    /// `DnsUpstreamQueryState` (b, writable): whether DNS queries are forwarded upstream;
    /// `NotImplemented` on agents built without `OTBR_DNS_UPSTREAM_QUERY`.
    public static var dnsUpstreamQueryState: Self { Self("DnsUpstreamQueryState") }
}

extension AgentProperty where Value == Nat64State {
    /// `Nat64State` ((ss)): prefix manager and translator states.
    public static var nat64State: Self {
        Self("Nat64State") { (v) throws(DBusValueError) in
            var r = try StructReader(v, fieldCount: 2)
            return Nat64State(
                prefixManager: Nat64ComponentState(wireName: try r.next(String.self)),
                translator: Nat64ComponentState(wireName: try r.next(String.self)))
        }
    }
}

extension AgentProperty where Value == Capabilities {
    /// `Capabilities` (ay): serialized `otbr.Capabilities`.
    public static var capabilities: Self {
        Self("Capabilities") { (v) throws(DBusValueError) in
            do { return try Capabilities(serialized: try [UInt8](dbusValue: v)) } catch {
                throw .invalid("Capabilities: \(error)")
            }
        }
    }
}

extension AgentProperty where Value == FeatureFlagList {
    /// `FeatureFlagListData` (ay): serialized `otbr.FeatureFlagList` (empty until one is written).
    public static var featureFlags: Self {
        Self("FeatureFlagListData") { (v) throws(DBusValueError) in
            do { return try FeatureFlagList(serialized: try [UInt8](dbusValue: v)) } catch {
                throw .invalid("FeatureFlagListData: \(error)")
            }
        }
    }
}

extension AgentProperty where Value == BorderAgentTelemetry {
    /// `TelemetryData`, decoded down to the border agent's counters and completed ePSKc journeys.
    public static var borderAgentTelemetry: Self {
        Self("TelemetryData") { (v) throws(DBusValueError) in
            do { return try BorderAgentTelemetry(telemetryData: try [UInt8](dbusValue: v)) } catch {
                throw .invalid("TelemetryData: \(error)")
            }
        }
    }
}

extension AgentProperty where Value == Duration {
    /// `Uptime` (t, ms): how long the agent's OpenThread instance has run.
    public static var uptime: Self {
        Self("Uptime") { (v) throws(DBusValueError) in .milliseconds(Int64(clamping: try UInt64(dbusValue: v))) }
    }
}
