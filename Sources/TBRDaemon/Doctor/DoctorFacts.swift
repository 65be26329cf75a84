import TBRDocuments
import BorderAgentDiscovery
import BorderRouterService
import HostNetwork
import MeshCoP
import OpenThreadBR
import TBRFoundation

/// One check of `tbrctl doctor`: what was read and what it means.
struct DiagnosticCheck: Sendable, Equatable {
    /// How a check came out: the document's status (pass, warn, fail, unsupported), one enum.
    typealias Status = DoctorCheck.Status

    /// The check's stable id, e.g. `omr-route`.
    var id: String
    var status: Status
    /// What was read and what it means.
    var message: String
    /// What to do; empty when it passed.
    var fix: String

    init(_ id: String, _ status: Status, _ message: String, fix: String = "") {
        self.id = id
        self.status = status
        self.message = message
        self.fix = fix
    }
}

/// What the doctor read about one border router.
struct RouterFacts: Sendable {
    var id: String
    var transport: RouterTransport
    /// The agent's bus name or REST URL.
    var address: String
    var online: Bool
    /// nil when the agent did not say.
    var role: DeviceRole?
    /// The mesh, or why it could not be read.
    var topology: Reading<MeshTopology>
    /// The active dataset (nil: none), or why it could not be read.
    var dataset: Reading<OperationalDataset?>
    var health: RouterHealth
    /// The OMR prefix the router advertises in its `_meshcop._udp` TXT record, when mDNS saw it.
    var advertisedOMR: IPv6Prefix?
    /// The router's structure and its internet-access policy, and how the reconciler last found it.
    var policy: PolicyFacts?
}

/// A structure's policy as it bears on one router.
struct PolicyFacts: Sendable {
    var structure: String
    var option: ThreadNetworkSettingsTrait.InternetAccessOption
    /// nil before the reconciler has looked at the router.
    var status: RouterPolicyStatus?
}

/// What the doctor read about this host.
struct HostFacts: Sendable {
    /// The kernel's IPv6 routing table.
    var routes: Reading<[IPv6Route]>
    /// The IPv6 settings of the interfaces that should learn routes from routers on other hosts.
    var interfaces: [(name: String, settings: Reading<InterfaceIPv6Settings>)]
    /// Whether tbrd keeps a host firewall (`firewall = nftables`).
    var firewallEnabled: Bool
    /// The structures whose policy needs tbrd's firewall table (`none` or `nat64-only` with a router on this host).
    var firewallNeededBy: [String]
    /// Whether `table inet tbrd` exists, when it could be read.
    var firewallTable: Reading<Bool>
    /// Whether avahi-daemon answers.
    var avahiRunning: Bool
    /// The border agents mDNS sees; nil when avahi-daemon never answered.
    var borderAgents: [BorderAgent]?
}
