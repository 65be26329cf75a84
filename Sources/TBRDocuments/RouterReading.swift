/// What tbrd last read of a router's mesh, kept by the health monitor and read from it without asking the
/// router: `{"router", "online", "role", "partitionId", "routers", "children"}` (MQTT's
/// `tbrd/routers/<id>/status`). nil members were not read (an agent that does not answer, a mesh not read
/// yet).
public struct RouterReading: Sendable, Hashable, Encodable {
    /// The router's id.
    public var router: String
    /// Whether its agent answers.
    public var online: Bool
    /// Its Thread role (`leader`, `router`, `child`, `detached`, `disabled`), when known.
    public var role: String?
    /// Its partition id as Thread tools write it (`0x1a2b3c4d`), when attached.
    public var partitionId: String?
    /// How many routers (the leader among them) and children it sees.
    public var routers: Int?
    public var children: Int?

    private enum CodingKeys: String, CodingKey { case router, online, role, partitionId, routers, children }

    /// Every member, null ones too.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(router, forKey: .router)
        try c.encode(online, forKey: .online)
        try c.encode(role, forKey: .role)
        try c.encode(partitionId, forKey: .partitionId)
        try c.encode(routers, forKey: .routers)
        try c.encode(children, forKey: .children)
    }

    /// A value as given.
    public init(router: String, online: Bool, role: String?, partitionId: String?, routers: Int?, children: Int?) {
        self.router = router
        self.online = online
        self.role = role
        self.partitionId = partitionId
        self.routers = routers
        self.children = children
    }
}
