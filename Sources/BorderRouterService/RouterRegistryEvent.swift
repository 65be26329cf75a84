public import DeviceModel
public import MeshCoP
public import OpenThreadBR

/// A change in the set of border routers a service knows (tbrd's `BorderRouterAdded`/`Removed`).
public enum RouterRegistryEvent: Hashable, Sendable {
    /// A router was seen for the first time. It is never forgotten afterwards.
    case added(DeviceID)
    /// The router's otbr-agent is on the bus (started or restarted).
    case online(DeviceID)
    /// The router's otbr-agent left the bus; the router is kept, marked offline.
    case offline(DeviceID)
}

/// One border router as the registry lists it.
public struct BorderRouterSummary: Hashable, Sendable {
    /// The router's stable id (its Thread interface name), usable in a D-Bus object path through
    /// ``DeviceModel/DeviceID/objectPathElement``.
    public var id: DeviceID
    /// The Thread interface its otbr-agent serves.
    public var interfaceName: ThreadInterfaceName
    /// The agent's Border Agent ID, when known (a new one after `LeaveNetwork`).
    public var borderAgentID: BorderAgentID?
    /// Whether the agent is on the bus.
    public var isOnline: Bool
    /// The unique bus name of the running agent instance.
    public var agentInstance: String?
    /// The Thread role, when known.
    public var role: DeviceRole?
    /// Whether an ePSKc session is open on the router (tbrd's `EpskcActive`).
    public var epskcSessionOpen: Bool = false
    /// The agent's extended address (the `xa` key of its `_meshcop._udp` TXT record), when known.
    public var extendedAddress: ExtendedAddress?
}
