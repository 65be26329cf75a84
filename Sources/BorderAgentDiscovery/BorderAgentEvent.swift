public import MDNS

/// A change among the Border Agents on the network.
public enum BorderAgentEvent: Hashable, Sendable {
    /// A `_meshcop._udp` service was found and resolved.
    case added(BorderAgent)
    /// A known agent's service changed (TXT, port, host, addresses).
    case updated(BorderAgent)
    /// A known agent's `_meshcop._udp` service is gone.
    case removed(BorderAgent, RemovalReason)
    /// The `_meshcop-e._udp` service of instance `instanceName` appeared, or came with a new port: an
    /// ephemeral key became active (the agent binds a new port for every key).
    case ephemeralKeyServiceAppeared(instanceName: String, port: UInt16)
    /// The `_meshcop-e._udp` service of instance `instanceName` went away: its key ended.
    case ephemeralKeyServiceWithdrawn(instanceName: String, RemovalReason)
}
