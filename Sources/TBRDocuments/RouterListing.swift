/// One border router as `tbrctl list` shows it; its JSON form is the contract of `tbrctl --json list`:
/// `{id, interface, transport, address, online, role, networkName, extPanId, epskcSupported}` (null when
/// unknown).
public struct RouterListing: Sendable, Hashable, Encodable {
    /// The router id.
    public var id: String
    /// The otbr-agent interface name; empty for a router on another host.
    public var interface: String
    /// How its agent is reached: `dbus` (this host) or `rest` (another host).
    public var transport: String
    /// Where: the agent's bus name, or its REST API's URL.
    public var address: String
    /// Whether its otbr-agent is on the bus.
    public var online: Bool
    /// `disabled`, `detached`, `child`, `router` or `leader`; nil when unknown.
    public var role: String?
    /// The network name of its active dataset; nil without one.
    public var networkName: String?
    /// The extended PAN ID of its active dataset, 16 lower-case hex digits; nil without one.
    public var extPanId: String?
    /// Whether it supports ePSKc.
    public var epskcSupported: Bool

    private enum CodingKeys: String, CodingKey {
        case id, interface, transport, address, online, role, networkName, extPanId, epskcSupported
    }

    /// Encodes every key, with null for what is unknown, so scripts find the same keys on every router.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(interface, forKey: .interface)
        try c.encode(transport, forKey: .transport)
        try c.encode(address, forKey: .address)
        try c.encode(online, forKey: .online)
        try c.encode(role, forKey: .role)
        try c.encode(networkName, forKey: .networkName)
        try c.encode(extPanId, forKey: .extPanId)
        try c.encode(epskcSupported, forKey: .epskcSupported)
    }

    /// A value as given.
    public init(id: String, interface: String, transport: String, address: String, online: Bool, role: String?, networkName: String?, extPanId: String?, epskcSupported: Bool) {
        self.id = id
        self.interface = interface
        self.transport = transport
        self.address = address
        self.online = online
        self.role = role
        self.networkName = networkName
        self.extPanId = extPanId
        self.epskcSupported = epskcSupported
    }
}
