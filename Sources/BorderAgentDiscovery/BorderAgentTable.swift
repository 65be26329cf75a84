public import MDNS

/// The Border Agents on the network, from the events of two browses (`_meshcop._udp` and
/// `_meshcop-e._udp`), as a sans-IO state machine. An agent and its ephemeral-key service share an
/// instance name; either may be seen first.
public struct BorderAgentTable: Sendable {
    private var agents: [String: BorderAgent] = [:]
    private var ephemeral: [String: UInt16] = [:]

    /// An empty table.
    public init() {}

    /// The agents known now, sorted by instance name.
    public var all: [BorderAgent] { agents.keys.sorted().compactMap { agents[$0] } }

    /// The agent of instance `name`, if known.
    public func agent(named name: String) -> BorderAgent? { agents[name] }

    /// Whether the `_meshcop-e._udp` service of instance `name` is there now.
    public func hasEphemeralKeyService(_ name: String) -> Bool { ephemeral[name] != nil }

    /// The port of the `_meshcop-e._udp` service of instance `name`, while it is there (a new one per key).
    public func ephemeralKeyPort(_ name: String) -> UInt16? { ephemeral[name] }

    /// Takes an event of the `_meshcop._udp` browse.
    /// - Returns: the changes it makes, in order (several for a ``MDNS/ServiceEvent/resynchronized(_:)``).
    public mutating func meshcop(_ event: ServiceEvent) -> [BorderAgentEvent] {
        switch event {
        case .added(let service), .updated(let service):
            return meshcopSeen(service).map { [$0] } ?? []
        case .removed(let service, let reason):
            return meshcopGone(service.name, reason).map { [$0] } ?? []
        case .resynchronized(let services):
            let present = Set(services.map(\.name))
            let gone = agents.keys.sorted().filter { !present.contains($0) }
            return gone.compactMap { meshcopGone($0, .missedWhileBehind) } + services.compactMap { meshcopSeen($0) }
        }
    }

    /// Takes an event of the `_meshcop-e._udp` browse.
    /// - Returns: the changes it makes, in order (several for a ``MDNS/ServiceEvent/resynchronized(_:)``).
    public mutating func ephemeral(_ event: ServiceEvent) -> [BorderAgentEvent] {
        switch event {
        case .added(let service), .updated(let service):
            return ephemeralSeen(service).map { [$0] } ?? []
        case .removed(let service, let reason):
            return ephemeralGone(service.name, reason).map { [$0] } ?? []
        case .resynchronized(let services):
            // A key that ended while the consumer was behind is withdrawn here: its end is never lost.
            let present = Set(services.map(\.name))
            let gone = ephemeral.keys.sorted().filter { !present.contains($0) }
            return gone.compactMap { ephemeralGone($0, .missedWhileBehind) } + services.compactMap { ephemeralSeen($0) }
        }
    }

    private mutating func meshcopSeen(_ service: DiscoveredService) -> BorderAgentEvent? {
        let agent = BorderAgent(service: service, ephemeralKeyPort: ephemeral[service.name])
        let before = agents.updateValue(agent, forKey: service.name)
        if before == nil { return .added(agent) }
        return before == agent ? nil : .updated(agent)
    }

    private mutating func meshcopGone(_ name: String, _ reason: RemovalReason) -> BorderAgentEvent? {
        guard let agent = agents.removeValue(forKey: name) else { return nil }
        return .removed(agent, reason)
    }

    private mutating func ephemeralSeen(_ service: DiscoveredService) -> BorderAgentEvent? {
        let name = service.name
        let before = ephemeral.updateValue(service.port, forKey: name)
        agents[name]?.ephemeralKeyPort = service.port
        // Every activation binds a new port. A key that ends and a new one that starts within the
        // second a goodbye takes to leave the cache show only as a new port, never as a removal.
        return before == service.port ? nil : .ephemeralKeyServiceAppeared(instanceName: name, port: service.port)
    }

    private mutating func ephemeralGone(_ name: String, _ reason: RemovalReason) -> BorderAgentEvent? {
        guard ephemeral.removeValue(forKey: name) != nil else { return nil }
        agents[name]?.ephemeralKeyPort = nil
        return .ephemeralKeyServiceWithdrawn(instanceName: name, reason)
    }
}
