public import TBRFoundation

/// A border router tbrd has seen, remembered while it is offline.
public struct KnownRouter: Hashable, Sendable {
    /// Its identifier.
    public var id: DeviceID
    /// The otbr-agent's Thread interface (`wpan0`), when known.
    public var interfaceName: String?
    /// Its border agent ID in lower-case hex, when known.
    public var borderAgentID: String?
    /// Whether its otbr-agent is on the bus now.
    public var isOnline: Bool
    /// When it was first recorded (seconds since the Unix epoch).
    public var firstSeenAt: Double
    /// When it was last seen online, or went offline (seconds since the Unix epoch).
    public var lastSeenAt: Double
    /// What it last reported, as the caller recorded it (``TBRStore/setLastKnown(_:of:)``); nil if nothing.
    public var lastKnown: [UInt8]?
    /// The base URL of its otbr-agent's REST API, for a router on another host an admin added
    /// (``TBRStore/addRemoteRouter(_:restURL:borderAgentID:)``); nil for an agent found on the bus.
    public var restURL: String?

    /// A router with these values (the store creates them; this is for callers' tests).
    public init(
        id: DeviceID, interfaceName: String?, borderAgentID: String?, isOnline: Bool, firstSeenAt: Double,
        lastSeenAt: Double, lastKnown: [UInt8]? = nil, restURL: String? = nil
    ) {
        self.lastKnown = lastKnown
        self.restURL = restURL
        self.id = id
        self.interfaceName = interfaceName
        self.borderAgentID = borderAgentID
        self.isOnline = isOnline
        self.firstSeenAt = firstSeenAt
        self.lastSeenAt = lastSeenAt
    }
}
