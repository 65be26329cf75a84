public import MeshCoP
public import OpenThreadBR

/// How one simulated otbr-agent is built and how fast it moves.
///
/// The defaults are those of the agent `../otbr/README.md` observed (RCP mode, Thread 1.4, ePSKc, NAT64,
/// feature flags, DNS upstream queries and telemetry built in, DHCPv6-PD not), except that the role
/// changes faster (2 s instead of ~7 s).
public struct SimulatorConfiguration: Sendable {
    /// The Thread interface: the agent is `io.openthread.BorderRouter.<if>` at
    /// `/io/openthread/BorderRouter/<if>`.
    public var interfaceName: ThreadInterfaceName
    /// A stored active dataset to start with, already leader of its network (`--dataset`).
    public var initialDataset: OperationalDataset?
    /// Built with ePSKc (`OTBR_ENABLE_EPSKC`); without it the ePSKc methods answer `UnknownMethod` and
    /// `EphemeralKeyEnabled` answers `NotFound` (`--no-epskc`).
    public var epskcBuiltIn = true
    /// Whether the ePSKc feature is on when the agent starts (OpenThread's
    /// `..._EPHEMERAL_KEY_FEATURE_ENABLED_BY_DEFAULT`; `--epskc-disabled` turns it off).
    public var epskcEnabledAtStart = true
    /// Built with the telemetry API; without it `TelemetryData` answers `NotImplemented` (`--no-telemetry`).
    public var telemetryBuiltIn = true
    /// What the agent is built with, as its `Capabilities` property says (`--no-nat64`, `--dhcp6-pd`).
    public var capabilities = SimulatedCapabilities()
    /// Built with feature flags (`OTBR_FEATURE_FLAGS`, `--no-feature-flags` builds without): NAT64,
    /// DHCPv6-PD and DNS upstream queries start off and `FeatureFlagListData` switches them. Without:
    /// every feature built in starts on, and `FeatureFlagListData` answers `NotImplemented`.
    public var featureFlagsBuiltIn = true
    /// Built with DNS upstream queries (`OTBR_DNS_UPSTREAM_QUERY`); without it `DnsUpstreamQueryState`
    /// answers `NotImplemented` (`--no-dns-upstream`).
    public var dnsUpstreamBuiltIn = true
    /// The vendor name the agent would advertise (`vn`), `--vendor`.
    public var vendorName = "OpenThread"
    /// The product (model) name the agent would advertise (`mn`), `--product`.
    public var productName = "BorderRouter"
    /// How long a node takes from detached to leader (`--role-delay`).
    public var roleDelay: Duration = .seconds(2)
    /// How long a graceful detach of an attached node takes (`--detach-delay`).
    public var detachDelay: Duration = .seconds(1)
    /// How long systemd waits before restarting the agent after `LeaveNetwork` (`--restart-delay`).
    public var restartDelay: Duration = .seconds(5)
    /// How long NAT64 takes to become active once enabled on a leader (`--nat64-delay`); it is idle
    /// after a fifth of it.
    public var nat64Delay: Duration = .seconds(5)
    /// How long a pending dataset with the Delay Timer `AttachAllNodesTo` gives it (300000 ms) takes to
    /// become active (`--pending-delay`); its Delay Timer counts down over this time. As on the real
    /// agent, 300 s unless shortened.
    public var pendingDelay: Duration = .seconds(300)
    /// How long a used key stays connected/accepted after its commissioner closed the session, before
    /// it stops (`--disconnect-guard`; the real agent's disconnect guard time, 2 s).
    public var disconnectGuard: Duration = .seconds(2)
    /// How long the ePSKc's DTLS port hears nothing after a failed handshake (`--epskc-retry-hold`): the
    /// real agent answers a retry within ~2 s of a failure only ~3 s later (EpskcTransport.swift).
    public var epskcRetryHold: Duration = .seconds(2)
    /// How long a network diagnostic request or a device discovery of the REST API takes to be answered
    /// by the simulated mesh (`--diag-delay`).
    public var diagnosticDelay: Duration = .milliseconds(200)
    /// Publish `_meshcop._udp` and, while a key is active, `_meshcop-e._udp` through avahi-daemon on the
    /// system bus (`--mdns`), as the real agent's mDNS publisher does.
    public var mdns = false
    /// Where to serve otbr-agent's REST API (`--rest`); nil: no REST API, as an agent built without
    /// `OTBR_REST`. The server belongs to the agent process and comes back on the same port after a restart.
    public var restListen: RESTListenAddress?
    /// The infrastructure (LAN) interface `InfraLinkInfo` names (`--infra-interface`): the one whose
    /// prefixes tbrd's host firewall lets the mesh reach under `none`.
    public var infraInterfaceName = "eth0"
    /// The radio's factory EUI-64 (random unless given).
    public var eui64: EUI64

    /// A configuration for `interfaceName` with the defaults above.
    public init(interfaceName: ThreadInterfaceName) {
        self.interfaceName = interfaceName
        var rng = SystemRandomNumberGenerator()
        eui64 = EUI64(rawValue: 0x18B4_3000_0000_0000 | (rng.next() & 0x0000_00FF_FFFF_FFFF))
    }
}
