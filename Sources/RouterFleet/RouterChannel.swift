package import TBRFoundation
package import DeviceModel
package import MeshCoP
package import OpenThreadBR

/// How a border router's otbr-agent is reached: over D-Bus on this host (``DBusChannel``) or through its
/// REST API on another (``RESTChannel``). ``ManagedRouter`` does everything through this seam, so the
/// ePSKc session machine, the journal and the structures do not know which transport a router has; only
/// ``transport`` and ``address`` say it.
///
/// Each operation says what it can: a REST agent has no telemetry counters, no capabilities and no
/// software version, and answers those with a ``RouterCallError`` that is ``RouterCallError/isMissing``.
package protocol RouterChannel: Sendable {
    /// How the agent is reached.
    var transport: RouterTransport { get }
    /// Where: the agent's well-known bus name, or its REST API's base URL.
    var address: String { get }
    /// The agent as people name it in messages (`otbr-agent for wpan0`, `otbr-agent at http://…`).
    var agentName: String { get }

    /// Which instance of the agent runs now (a D-Bus unique name; for REST, a fixed token when it answers),
    /// or nil when none does.
    func currentInstance() async -> String?
    /// What the router says about itself, in one round trip where the transport allows.
    func readIdentity() async throws(RouterCallError) -> RouterIdentity
    /// The Thread role.
    func deviceRole() async throws(RouterCallError) -> DeviceRole
    /// The active dataset, nil when there is none.
    func activeDataset() async throws(RouterCallError) -> OperationalDataset?
    /// The active or pending dataset's TLVs as the agent holds them; nil when there is none.
    func datasetTLVs(pending: Bool) async throws(RouterCallError) -> [UInt8]?
    /// Whether the agent's ePSKc feature is on; ``RouterCallError/isMissing`` when it is built without.
    func epskcEnabled() async throws(RouterCallError) -> Bool
    /// What internet access the agent can give; ``RouterCallError/isMissing`` when it cannot say.
    func internetAccess() async throws(RouterCallError) -> ThreadNetworkCapabilitiesTrait.InternetAccessOption
    /// The agent's software version.
    func softwareVersion() async throws(RouterCallError) -> String
    /// The mesh as the agent sees it now, every table read fresh.
    /// The mesh around the router; `wholeMesh`: through network diagnostics where the agent offers them
    /// (they send Thread traffic to every router: only when a person or a client asked), else the agent's
    /// own tables. A topology short of the whole mesh says where it ends (``MeshTopology/horizon``).
    func meshTopology(wholeMesh: Bool) async throws(RouterCallError) -> MeshTopology
    /// The strongest energy heard on each channel of the agent's preferred mask over `duration` per
    /// channel (D-Bus `EnergyScan`); ``RouterCallError/isMissing`` where the agent has none (REST, NCP).
    func energyScan(duration: Duration) async throws(RouterCallError) -> [EnergyScanResult]
    /// The channels the radio supports (`LinkSupportedChannelMask`, page 0 bits); ``RouterCallError/isMissing``
    /// where the transport cannot say (REST).
    func supportedChannelMask() async throws(RouterCallError) -> UInt32
    /// What a diagnosis reads besides the mesh (each value on its own: one failing getter spoils no other).
    func healthReadings() async -> RouterHealth

    /// Starts a key of `lifetime`; with `readingFirst`, reads the ePSKc evidence first, in the same round
    /// trip where the transport allows (the agent answers the read before it starts the key).
    func activateEpskc(lifetime: Duration, readingFirst: Bool) async -> (TelemetryResult?, Result<EphemeralKey, RouterCallError>)
    /// Stops the key (keeping a connected commissioner's with `retainActiveSession`), reading first as
    /// ``activateEpskc(lifetime:readingFirst:)``.
    func deactivateEpskc(retainActiveSession: Bool, readingFirst: Bool) async -> (TelemetryResult?, Result<Void, RouterCallError>)
    /// Reads what the agent says about its keys (D-Bus: `TelemetryData`, which consumes completed journeys;
    /// REST: the key's state, as ``RESTKeyEvidence`` reads it).
    func readEpskcEvidence() async -> TelemetryResult
    /// Whether a key is active on the agent now, when the transport can say for sure (REST: the key's
    /// state); nil when it cannot (D-Bus: the counters cannot tell a key ended by a session error).
    /// An mDNS withdrawal of `_meshcop-e._udp` that arrives late, after a new key started, is checked
    /// against it.
    func keyIsActive() async -> Bool?

    /// Moves the whole mesh to `tlvs` (a migration through the pending dataset); returns its delay. Over
    /// REST the pending dataset carries `delay`; over D-Bus `AttachAllNodesTo` chooses its own (300 s).
    func attachAllNodes(to tlvs: [UInt8], delay: Duration) async throws(RouterCallError) -> Duration
    /// Makes this router join the network of `tlvs`; returns when it is attached.
    func join(_ tlvs: [UInt8]) async throws(RouterCallError)
    /// Makes the agent forget its network; returns when it is back (D-Bus: the restarted agent is on the
    /// bus; REST: its Thread data is erased).
    func leaveNetwork(timeout: Duration) async throws(RouterCallError)

    /// What the agent tells without being asked, until the task is cancelled: presence (REST: from
    /// polling), role and active-dataset changes. D-Bus presence comes from the service's discovery
    /// instead, so its stream carries only signals.
    func observations() async -> AsyncStream<RouterObservation>

    /// What the internet-access policy switches on the agent (NAT64, DHCPv6-PD through its feature
    /// flags); nil where the transport cannot switch them (REST).
    nonisolated var policyControls: (any PolicyControls)? { get }
}

/// How a border router's agent is reached (tbrd's `Transport` property).
public enum RouterTransport: String, Hashable, Sendable, Codable {
    /// otbr-agent on this host's D-Bus.
    case dbus
    /// otbr-agent's REST API on another host.
    case rest
}

/// What a router says about itself in ``RouterChannel/readIdentity()``.
package struct RouterIdentity: Sendable {
    package var role: DeviceRole
    package var borderAgentID: BorderAgentID?
    package var extendedAddress: ExtendedAddress?
    /// nil when the transport cannot say.
    package var softwareVersion: String?
    /// Whether the agent can move the whole mesh (`AttachAllNodesTo` on D-Bus, the pending dataset on REST).
    package var wholeNetworkMigration: Bool
}

/// One thing an agent told without being asked.
package enum RouterObservation: Sendable {
    case presence(AgentPresence)
    case role(DeviceRole)
    case activeDataset([UInt8]?)
    /// A key is active on the agent (REST polling found one); a session opens if none is.
    case keyActive
}

/// Why a call to a router's agent failed, whatever the transport: the device model's code and a
/// sentence naming the agent.
package struct RouterCallError: Error, Sendable, CustomStringConvertible {
    /// The device model's code (busy, notSupported, invalidState, invalidArgument, unavailable, …).
    package var code: HomeError.Code
    /// The cause as a sentence fragment naming the agent.
    package var reason: String
    /// The whole sentence: what failed, on which agent, why.
    package var description: String
    /// The agent lacks the operation or value (a build without the feature, an NCP agent, or REST).
    package var isMissing: Bool = false
    /// The agent answered "not in this state" (OpenThread `InvalidState`, HTTP 409).
    package var isInvalidState: Bool { code == .invalidState }

    /// The `activateEpskcMode` status.
    package var activationStatus: ThreadNetworkManagementTrait.ActivateEpskcModeStatus {
        switch code {
        case .busy: .busy
        case .notSupported: .notSupported
        case .invalidState: .invalidState
        case .invalidArgument: .invalidArgument
        default: .failed
        }
    }

    /// The `joinNetwork` status.
    package var networkStatus: ThreadNetworkManagementTrait.NetworkOperationStatus {
        switch code {
        case .busy: .busy
        case .notSupported: .notSupported
        case .invalidState: .invalidState
        case .invalidArgument: .invalidArgument
        default: .failed
        }
    }

    /// This failure as a device-model error whose sentence names the command and the router.
    package func homeError(_ command: String, on device: DeviceID) -> HomeError {
        HomeError(code, "\(command) on \(device) failed: \(reason)", underlying: description)
    }
}

/// The agent's switches the internet-access policy enforces (``PolicyEnforcer``), as otbr-agent's D-Bus
/// API offers them. Errors are the agent's own, so the enforcer can tell a feature compiled out
/// (`NotImplemented`, a member missing) from a failure.
package protocol PolicyControls: Sendable {
    /// `Capabilities`.
    func capabilities() async throws(AgentError) -> Capabilities
    /// The infrastructure interface's name (`InfraLinkInfo`).
    func infrastructureLinkName() async throws(AgentError) -> String
    /// `FeatureFlagListData`.
    func featureFlags() async throws(AgentError) -> FeatureFlagList
    /// Reads the feature flags, changes them with `change` and writes them back.
    func updateFeatureFlags(_ change: (inout FeatureFlagList) -> Void) async throws(AgentError)
    /// `Nat64State`.
    func nat64State() async throws(AgentError) -> Nat64State
    /// `SetNat64Enabled`.
    func setNat64Enabled(_ enabled: Bool) async throws(AgentError)
}
