/// One structure as `tbrctl structure show` prints it; its JSON form is the contract
/// `{name, routers:[…], settings:{internetAccessOption, defaultThreadNetworkId}}` (the default network
/// null when none is set).
struct StructureView: Sendable, Hashable, Encodable {
    /// `ThreadNetworkSettings`.
    struct Settings: Sendable, Hashable, Encodable {
        /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
        var internetAccessOption: String
        /// The preferred network's extended PAN ID (hex); nil when none is set.
        var defaultThreadNetworkId: String?

        private enum CodingKeys: String, CodingKey {
            case internetAccessOption, defaultThreadNetworkId
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(internetAccessOption, forKey: .internetAccessOption)
            try c.encode(defaultThreadNetworkId, forKey: .defaultThreadNetworkId)
        }
    }

    /// The structure's name.
    var name: String
    /// The ids of its border routers, sorted.
    var routers: [String]
    /// Its settings.
    var settings: Settings

    /// The text form: one field per line.
    func render() -> String {
        TextTable.fields([
            ("Structure", name),
            ("Border routers", routers.isEmpty ? "-" : routers.joined(separator: ", ")),
            ("Internet access", settings.internetAccessOption),
            ("Default network", settings.defaultThreadNetworkId.orDash),
        ])
    }
}
