/// The settings of a structure (`ThreadNetworkSettings`): what the policy reconciler should apply.
///
/// The store keeps the values as text without interpreting them; the domain layer maps them to its
/// enums (`InternetAccessOption`) and typed identifiers (an extended PAN ID as 16 hex digits).
public struct StructureSettings: Hashable, Sendable {
    /// The desired internet-access option (e.g. `all`, `none`, `nat64Only`, `dhcpv6PdOnly`); nil when
    /// never set, meaning no policy is enforced.
    public var internetAccessOption: String?
    /// The preferred Thread network, by extended PAN ID; nil when not set.
    public var defaultThreadNetworkID: String?
    /// What tbrd does when a router of the structure comes back with no network: `off`, `ask` (the default)
    /// or `auto`.
    public var recovery: String

    /// The spellings of ``recovery``.
    public static let recoveryModes = ["off", "ask", "auto"]

    /// Settings with these values (by default, nothing set).
    public init(internetAccessOption: String? = nil, defaultThreadNetworkID: String? = nil, recovery: String = "ask") {
        self.internetAccessOption = internetAccessOption
        self.defaultThreadNetworkID = defaultThreadNetworkID
        self.recovery = recovery
    }
}
