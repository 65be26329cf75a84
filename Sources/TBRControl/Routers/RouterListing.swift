/// One border router as `tbrctl list` shows it; its JSON form is the contract of `tbrctl --json list`:
/// `{id, interface, transport, address, online, role, networkName, extPanId, epskcSupported}` (null when
/// unknown).
struct RouterListing: Sendable, Hashable, Encodable {
    /// The router id.
    var id: String
    /// The otbr-agent interface name; empty for a router on another host.
    var interface: String
    /// How its agent is reached: `dbus` (this host) or `rest` (another host).
    var transport: String
    /// Where: the agent's bus name, or its REST API's URL.
    var address: String
    /// Whether its otbr-agent is on the bus.
    var online: Bool
    /// `disabled`, `detached`, `child`, `router` or `leader`; nil when unknown.
    var role: String?
    /// The network name of its active dataset; nil without one.
    var networkName: String?
    /// The extended PAN ID of its active dataset, 16 lower-case hex digits; nil without one.
    var extPanId: String?
    /// Whether it supports ePSKc.
    var epskcSupported: Bool

    private enum CodingKeys: String, CodingKey {
        case id, interface, transport, address, online, role, networkName, extPanId, epskcSupported
    }

    /// Encodes every key, with null for what is unknown, so scripts find the same keys on every router.
    func encode(to encoder: any Encoder) throws {
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
}

/// Text for absent values in tables and sentences.
extension Optional where Wrapped == String {
    /// The value, or `-` when absent or empty.
    var orDash: String {
        guard let self, !self.isEmpty else { return "-" }
        return self
    }
}
