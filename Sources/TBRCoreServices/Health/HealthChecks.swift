import BorderRouterService
package import Store
package import OpenThreadBR
import TBRDocuments

/// What the health monitor keeps of a router's last reading: what its history records when it changes
/// and what the checks across routers compare.
package struct RouterObservation: Sendable, Equatable {
    package var online: Bool
    package var role: DeviceRole?
    /// nil while detached or when the mesh could not be read.
    package var partitionID: UInt32?
    package var leaderRouterID: UInt8?
    /// Routers (the leader among them) and children the router sees; nil when its mesh could not be read.
    package var routers: Int?
    package var children: Int?
    /// The Extended PAN ID of its active dataset, when read.
    package var network: String?
    /// The channel of its active dataset, when read.
    package var channel: UInt16?
    /// Its structure's name, when it is in one.
    package var structure: String?
    /// `Nat64State` (prefix manager, translator) as words, when read.
    package var nat64: (prefixManager: String, translator: String)?
    /// Its neighbours' extended addresses and the link quality (0–3) it hears each with, when known.
    package var neighbors: [(address: String, linkQuality: UInt8)] = []

    package static func == (a: Self, b: Self) -> Bool {
        a.online == b.online && a.role == b.role && a.partitionID == b.partitionID && a.leaderRouterID == b.leaderRouterID && a.routers == b.routers
            && a.children == b.children && a.network == b.network && a.channel == b.channel && a.structure == b.structure && a.nat64?.prefixManager == b.nat64?.prefixManager
            && a.nat64?.translator == b.nat64?.translator && a.neighbors.map(\.address) == b.neighbors.map(\.address)
            && a.neighbors.map(\.linkQuality) == b.neighbors.map(\.linkQuality)
    }

    package init(
        online: Bool, role: DeviceRole?, partitionID: UInt32? = nil, leaderRouterID: UInt8? = nil, routers: Int? = nil, children: Int? = nil,
        network: String? = nil, structure: String? = nil
    ) {
        self.online = online
        self.role = role
        self.partitionID = partitionID
        self.leaderRouterID = leaderRouterID
        self.routers = routers
        self.children = children
        self.network = network
        self.structure = structure
    }

    /// What `facts` read; the structure is the one whose network the facts were read against.
    init(_ facts: RouterFacts) {
        let topology = facts.topology.value
        let dataset = facts.dataset.value ?? nil
        self.init(
            online: facts.online, role: facts.role, partitionID: topology?.partitionID, leaderRouterID: topology?.leaderRouterID,
            routers: topology.map { $0.nodes.filter { $0.role != .child }.count }, children: topology.map { $0.nodes.filter { $0.role == .child }.count },
            network: dataset?.extendedPANID?.description, structure: facts.structureNetwork?.structure)
        channel = dataset?.channel.map { UInt16($0.number) }
        if case .value(let state) = facts.health.nat64 { nat64 = ("\(state.prefixManager)", "\(state.translator)") }
        neighbors = (topology?.nodes ?? []).filter { $0.source == .neighborTable }.compactMap { node in
            node.linkQualityIn.map { (address: node.extAddress.description, linkQuality: $0) }
        }
    }

    /// `offline`, or the role; nil while an agent that answers has not said its role.
    var stateWord: String? { Self.stateWord(online: online, role: role) }

    static func stateWord(online: Bool, role: DeviceRole?) -> String? { online ? role.map { "\($0)" } : "offline" }

    /// The sample that records what of the mesh changed from `before` (everything when there was none);
    /// nil when nothing the history keeps changed. The role is sampled as it changes, not here (a reading
    /// comes after the change and may miss a role the router only passed through).
    package func sample(since before: RouterObservation?, subject: String) -> HealthSampleRecord? {
        var change = HealthSampleRecord(subject: subject)
        if let partitionID, partitionID != before?.partitionID { change.partition = partitionID }
        if let routers, routers != before?.routers { change.routers = routers }
        if let children, children != before?.children { change.children = children }
        return change.isEmpty ? nil : change
    }
}

extension HealthSampleRecord {
    /// Whether it records no change.
    var isEmpty: Bool { state == nil && partition == nil && routers == nil && children == nil }
}

/// The checks that compare routers or follow one over time, which only the health monitor can run.
package enum HealthChecks {
    /// `partition`: router `id` and the other routers of its structure on the same network are in one
    /// partition. nil when it does not apply (no structure, not attached, partition unknown).
    package static func partition(_ id: String, _ own: RouterObservation, peers: [(id: String, observation: RouterObservation)]) -> DiagnosticCheck? {
        guard let structure = own.structure, let network = own.network, own.online, own.role?.isAttached == true, let partition = own.partitionID
        else { return nil }
        let same = peers.filter {
            $0.id != id && $0.observation.online && $0.observation.structure == structure && $0.observation.network == network
                && $0.observation.role?.isAttached == true && $0.observation.partitionID != nil
        }
        let apart = same.filter { $0.observation.partitionID != partition }
        guard !apart.isEmpty else {
            return DiagnosticCheck(
                "partition", .pass, same.isEmpty
                    ? "\(id) is the only attached router of \(structure) on network \(network)"
                    : "\(id) and \(same.map(\.id).sorted().joined(separator: ", ")) share partition \(hex(partition))")
        }
        let others = apart.sorted { $0.id < $1.id }.map { "\($0.id) in partition \(hex($0.observation.partitionID ?? 0))" }
        return DiagnosticCheck(
            "partition", .fail,
            "\(id) is in partition \(hex(partition)) but \(others.joined(separator: ", ")) of \(structure), on the same network \(network): devices on one cannot reach the other",
            fix: "bring the border routers within radio range of each other, or add a powered Thread device between them (tbrctl mesh -d \(id) shows what it reaches)")
    }

    /// `meshcop-published`: a router whose `_meshcop._udp` service mDNS showed is still shown while its
    /// agent is up. nil while it does not apply: the agent is down, its Border Agent ID is unknown, mDNS
    /// has not answered, or the service was never seen since the agent came up (an agent that has not
    /// published yet is not a withdrawal).
    package static func meshcopPublished(_ id: String, online: Bool, published: Bool?, seenSinceUp: Bool) -> DiagnosticCheck? {
        guard online, let published else { return nil }
        if published { return DiagnosticCheck("meshcop-published", .pass, "\(id)'s _meshcop._udp service is on mDNS") }
        guard seenSinceUp else { return nil }
        return DiagnosticCheck(
            "meshcop-published", .fail,
            "\(id)'s _meshcop._udp service is no longer on mDNS while its agent is up: phones and controllers cannot find this border router",
            fix: "check avahi-daemon on the router's host and that its Border Agent is enabled (otbr-agent's SetBorderAgentEnabled)")
    }

    private static func hex(_ partition: UInt32) -> String { HealthSample.partitionText(partition) }
}
