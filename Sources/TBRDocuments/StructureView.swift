/// One structure as `tbrctl structure show` prints it; its JSON form is the contract
/// `{name, routers:[…], settings:{internetAccessOption, defaultThreadNetworkId}, policy:[{id, state,
/// detail}]}` (the default network null when none is set).
public struct StructureView: Sendable, Hashable, Encodable {
    /// `ThreadNetworkSettings`.
    public struct Settings: Sendable, Hashable, Encodable {
        /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
        public var internetAccessOption: String
        /// The preferred network's extended PAN ID (hex); nil when none is set.
        public var defaultThreadNetworkId: String?

        private enum CodingKeys: String, CodingKey {
            case internetAccessOption, defaultThreadNetworkId
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(internetAccessOption, forKey: .internetAccessOption)
            try c.encode(defaultThreadNetworkId, forKey: .defaultThreadNetworkId)
        }

        /// A value as given.
        public init(internetAccessOption: String, defaultThreadNetworkId: String?) {
            self.internetAccessOption = internetAccessOption
            self.defaultThreadNetworkId = defaultThreadNetworkId
        }
    }

    /// The structure's name.
    public var name: String
    /// The ids of its border routers, sorted.
    public var routers: [String]
    /// Its settings.
    public var settings: Settings
    /// The internet-access policy's state on each of its routers (`Structure1.PolicyStatus`).
    public var policy: [PolicyRouterView]


    /// A value as given.
    public init(name: String, routers: [String], settings: Settings, policy: [PolicyRouterView]) {
        self.name = name
        self.routers = routers
        self.settings = settings
        self.policy = policy
    }
}
