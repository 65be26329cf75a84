package import TBRDocuments
package import BorderAgentDiscovery
package import BorderRouterService
package import HostNetwork
package import MeshCoP
package import OpenThreadBR
package import TBRFoundation

/// One check of `tbrctl doctor`: what was read and what it means.
package struct DiagnosticCheck: Sendable, Equatable {
    /// How a check came out: the document's status (pass, warn, fail, unsupported), one enum.
    package typealias Status = DoctorCheck.Status

    /// The check's stable id, e.g. `omr-route`.
    package var id: String
    package var status: Status
    /// What was read and what it means.
    package var message: String
    /// What to do; empty when it passed.
    package var fix: String

    package init(_ id: String, _ status: Status, _ message: String, fix: String = "") {
        self.id = id
        self.status = status
        self.message = message
        self.fix = fix
    }
}

extension DiagnosticCheck {
    /// The check as the document every adapter prints.
    package var document: DoctorCheck { DoctorCheck(id: id, status: status, message: message, fix: fix) }
}

/// What the doctor read about one border router.
package struct RouterFacts: Sendable {
    package var id: String
    package var transport: RouterTransport
    /// The agent's bus name or REST URL.
    package var address: String
    package var online: Bool
    /// nil when the agent did not say.
    package var role: DeviceRole?
    /// The mesh, or why it could not be read.
    package var topology: Reading<MeshTopology>
    /// The active dataset (nil: none), or why it could not be read.
    package var dataset: Reading<OperationalDataset?>
    package var health: RouterHealth
    /// The OMR prefix the router advertises in its `_meshcop._udp` TXT record, when mDNS saw it.
    package var advertisedOMR: IPv6Prefix?
    /// The router's structure and its internet-access policy, and how the reconciler last found it.
    package var policy: PolicyFacts?
    /// The router's structure's preferred network and recovery, when it is in a structure.
    package var structureNetwork: StructureNetworkFacts? = nil
}

/// A structure's preferred network as it bears on one router (the `structure-network` check).
package struct StructureNetworkFacts: Sendable {
    package var structure: String
    /// `off`, `ask` or `auto`.
    package var recovery: String
    /// Its Extended PAN ID; nil: the structure has none.
    package var preferred: String?
    /// Whether tbrd holds its credentials.
    package var credentialsHeld: Bool
}

/// A structure's policy as it bears on one router.
package struct PolicyFacts: Sendable {
    package var structure: String
    package var option: ThreadNetworkSettingsTrait.InternetAccessOption
    /// nil before the reconciler has looked at the router.
    package var status: RouterPolicyStatus?
}

/// What the doctor read about this host.
package struct HostFacts: Sendable {
    /// The kernel's IPv6 routing table.
    package var routes: Reading<[IPv6Route]>
    /// The IPv6 settings of the interfaces that should learn routes from routers on other hosts.
    package var interfaces: [(name: String, settings: Reading<InterfaceIPv6Settings>)]
    /// Whether tbrd keeps a host firewall (`firewall = nftables`).
    package var firewallEnabled: Bool
    /// The structures whose policy needs tbrd's firewall table (`none` or `nat64-only` with a router on this host).
    package var firewallNeededBy: [String]
    /// Whether `table inet tbrd` exists, when it could be read.
    package var firewallTable: Reading<Bool>
    /// Whether avahi-daemon answers.
    package var avahiRunning: Bool
    /// The border agents mDNS sees; nil when avahi-daemon never answered.
    package var borderAgents: [BorderAgent]?
}
