public import TBRFoundation
import DeviceModel
public import MeshCoP
public import OpenThreadBR

/// A change in the set of border routers a service knows (tbrd's `BorderRouterAdded`/`Removed`).
public enum RouterRegistryEvent: Hashable, Sendable {
    /// A router was seen for the first time (or an admin added one on another host). A router on this
    /// host's bus is never forgotten afterwards.
    case added(DeviceID)
    /// The router's otbr-agent is on the bus (started or restarted).
    case online(DeviceID)
    /// The router's otbr-agent left the bus (or stopped answering); the router is kept, marked offline.
    case offline(DeviceID)
    /// An admin removed the router (one on another host: ``BorderRouterService/removeRemoteRouter(_:)``);
    /// it is forgotten.
    case removed(DeviceID)
}

/// One border router as the registry lists it.
public struct BorderRouterSummary: Hashable, Sendable {
    /// The router's stable id (its Thread interface name, or the id an admin gave a router on another
    /// host), usable in a D-Bus object path through ``TBRFoundation/DeviceID/objectPathElement``.
    public var id: DeviceID
    /// The Thread interface its otbr-agent serves, for an agent on this host's bus; nil for one reached
    /// through REST.
    public var interfaceName: ThreadInterfaceName?
    /// How its agent is reached.
    public var transport: RouterTransport
    /// Where: the agent's bus name, or its REST API's base URL.
    public var address: String
    /// The agent's Border Agent ID, when known (a new one after `LeaveNetwork`).
    public var borderAgentID: BorderAgentID?
    /// Whether the agent is on the bus (or, through REST, answers).
    public var isOnline: Bool
    /// The unique bus name of the running agent instance (through REST, a token naming its URL).
    public var agentInstance: String?
    /// The Thread role, when known.
    public var role: DeviceRole?
    /// Whether an ePSKc session is open on the router (tbrd's `EpskcActive`).
    public var epskcSessionOpen: Bool = false
    /// The agent's extended address (the `xa` key of its `_meshcop._udp` TXT record), when known.
    public var extendedAddress: ExtendedAddress?
}
