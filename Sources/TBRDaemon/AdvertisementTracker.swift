import TBRFoundation
import BorderAgentDiscovery
import BorderRouterService
import MeshCoP

/// Which Border Agent on the network each router is, and what that tells the service, as a sans-IO
/// state machine: agents and router identities go in, the changes to carry out come out.
///
/// A router is matched to the `_meshcop._udp` service whose `id` is its Border Agent ID, or, when
/// none has it, whose `xa` is its extended address (the instance name changes with the extended
/// address, so it is never used to match). The match is kept after the agent's service goes, so the
/// router's `_meshcop-e._udp` service (same instance name) is still followed, and its names stay known.
struct AdvertisementTracker: Sendable {
    /// What identifies a router's agent on the network.
    struct Identity: Hashable, Sendable {
        var borderAgentID: BorderAgentID?
        var extendedAddress: ExtendedAddress?
    }

    /// What the service must be told.
    enum Action: Hashable, Sendable {
        /// The router advertises these names now (`vn`, `mn`).
        case names(DeviceID, AdvertisedNames)
        /// The router's `_meshcop-e._udp` service appeared: a key is active.
        case ephemeralKeyServiceAppeared(DeviceID)
        /// The router's `_meshcop-e._udp` service went away: its key ended.
        case ephemeralKeyServiceWithdrawn(DeviceID)
    }

    private var agents = BorderAgentTable()
    private var identities: [DeviceID: Identity] = [:]
    /// The instance name each router was last matched to.
    private(set) var instances: [DeviceID: String] = [:]
    private var names: [DeviceID: AdvertisedNames] = [:]
    /// The `_meshcop-e._udp` port each router's key has, as last told to the service.
    private var ephemeralKeyPorts: [DeviceID: UInt16] = [:]

    /// The agents changed (`table` is the browser's table after `event`).
    mutating func agentsChanged(_ table: BorderAgentTable) -> [Action] {
        agents = table
        return reconcile()
    }

    /// What identifies router `id` changed (it was probed, restarted or joined a network).
    mutating func routerChanged(_ id: DeviceID, _ identity: Identity) -> [Action] {
        guard identities[id] != identity else { return [] }
        identities[id] = identity
        return reconcile()
    }

    /// The agent router `identity` is on the network, if any.
    func match(_ identity: Identity) -> BorderAgent? {
        let all = agents.all
        if let id = identity.borderAgentID, let agent = all.first(where: { $0.txt.borderAgentID == id }) { return agent }
        if let xa = identity.extendedAddress, let agent = all.first(where: { $0.txt.extendedAddress == xa }) { return agent }
        return nil
    }

    /// The most characters of an advertised name kept (as for `vendor-name` in the configuration).
    static let nameLimit = 64

    /// A name from the network as tbrd serves it: without control characters (a NUL cannot even travel
    /// in a D-Bus string), at most ``nameLimit`` characters; nil when nothing is left.
    static func displayable(_ name: String?) -> String? {
        guard let name else { return nil }
        let kept = name.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
        let text = String(String.UnicodeScalarView(kept).prefix(nameLimit))
        return text.isEmpty ? nil : text
    }

    private mutating func reconcile() -> [Action] {
        var actions: [Action] = []
        for id in identities.keys.sorted() {
            if let agent = identities[id].flatMap(match) {
                instances[id] = agent.instanceName
                let advertised = AdvertisedNames(
                    vendorName: Self.displayable(agent.txt.vendorName), productName: Self.displayable(agent.txt.modelName))
                if names[id] != advertised {
                    names[id] = advertised
                    actions.append(.names(id, advertised))
                }
            }
            let port = instances[id].flatMap(agents.ephemeralKeyPort)
            let before = ephemeralKeyPorts[id]
            guard port != before else { continue }
            ephemeralKeyPorts[id] = port
            // A new port without a withdrawal in between is a key that ended and a new one.
            if before != nil { actions.append(.ephemeralKeyServiceWithdrawn(id)) }
            if port != nil { actions.append(.ephemeralKeyServiceAppeared(id)) }
        }
        return actions
    }
}
