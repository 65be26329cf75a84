/// One structure as `tbrctl structure show` prints it; its JSON form is the contract
/// `{name, routers:[…], settings:{internetAccessOption, defaultThreadNetworkId}, policy:[{id, state,
/// detail}]}` (the default network null when none is set).
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
    /// The internet-access policy's state on each of its routers (`Structure1.PolicyStatus`).
    var policy: [PolicyRouterView]

    /// The text form: one field per line, then the policy's state per router.
    func render() -> String {
        let fields = TextTable.fields([
            ("Structure", name),
            ("Border routers", routers.isEmpty ? "-" : routers.joined(separator: ", ")),
            ("Internet access", settings.internetAccessOption),
            ("Default network", settings.defaultThreadNetworkId.orDash),
        ])
        return policy.isEmpty ? fields : fields + "\n\n" + PolicyRouterView.table(policy)
    }
}

/// One router's row of the internet-access policy: `{"id": "wpan0", "state": "applied", "detail": ""}`
/// (`Structure1.PolicyStatus`, the state `applied`, `pending`, `failed` or `unsupported`).
struct PolicyRouterView: Sendable, Hashable, Encodable {
    /// The router's id.
    var id: String
    /// `applied`, `pending`, `failed` or `unsupported`.
    var state: String
    /// What failed, what the router lacks, or a note; `""` for none.
    var detail: String

    /// The rows as a table for people: `ROUTER  POLICY  DETAIL`.
    static func table(_ rows: [PolicyRouterView]) -> String {
        TextTable.render(header: ["ROUTER", "POLICY", "DETAIL"], rows: rows.map { [$0.id, $0.state, $0.detail.isEmpty ? "-" : $0.detail] })
    }
}

/// `tbrctl structure policy`'s document: `{"structure": "Home", "internetAccessOption": "nat64Only",
/// "routers": [{"id": "wpan0", "state": "applied", "detail": ""}]}`, the option in its D-Bus spelling.
struct PolicyView: Sendable, Hashable, Encodable {
    /// The structure's name.
    var structure: String
    /// `unspecified`, `none`, `all`, `nat64Only` or `dhcpv6PdOnly`.
    var internetAccessOption: String
    /// The state on each router of the structure, sorted by id.
    var routers: [PolicyRouterView]

    /// The text form: the structure and option, then one row per router.
    func render() -> String {
        let fields = TextTable.fields([("Structure", structure), ("Internet access", internetAccessOption)])
        return routers.isEmpty ? fields + "\n(no border routers)" : fields + "\n\n" + PolicyRouterView.table(routers)
    }
}
