/// `tbrctl structure policy`'s document: `{"structure": "Home", "internetAccessOption": "nat64Only",
/// "routers": [{"id": "wpan0", "state": "applied", "detail": ""}]}`, the option in its D-Bus spelling.
public struct PolicyView: Sendable, Hashable, Encodable {
    /// The structure's name.
    public var structure: String
    /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
    public var internetAccessOption: String
    /// The state on each router of the structure, sorted by id.
    public var routers: [PolicyRouterView]


    /// A value as given.
    public init(structure: String, internetAccessOption: String, routers: [PolicyRouterView]) {
        self.structure = structure
        self.internetAccessOption = internetAccessOption
        self.routers = routers
    }
}
