public import MeshCoP

/// A structure's Thread network settings (Google Home API `ThreadNetworkSettingsTrait`): the internet
/// access its border routers should give, and its preferred Thread network.
///
/// The settings are the desired state; the policy reconciler of `BorderRouterService` applies the
/// internet-access option to every router of the structure and reports how far each holds it in
/// ``policyStatus`` (not one of Google's attributes).
public struct ThreadNetworkSettingsTrait: Trait {
    /// The identifier, `ThreadNetworkSettings`.
    public static var identifier: String { "ThreadNetworkSettings" }

    /// The internet access a structure's routers should give (Google's case names).
    public enum InternetAccessOption: String, Hashable, Sendable, Codable, CaseIterable {
        /// Not set.
        case internetAccessOptionUnspecified
        /// No internet access for the mesh.
        case internetAccessOptionNone
        /// IPv4 through NAT64 and global IPv6 through DHCPv6 prefix delegation.
        case internetAccessOptionAll
        /// IPv4 through NAT64 only.
        case internetAccessOptionNat64Only
        /// Global IPv6 through DHCPv6 prefix delegation only.
        case internetAccessOptionDhcpv6PdOnly
    }

    /// Every setting at once; ``update(_:)`` changes them in place.
    public struct Attributes: Hashable, Sendable, Codable {
        /// The internet access the routers should give.
        public var internetAccessOption: InternetAccessOption
        /// The preferred Thread network, by extended PAN ID (used when commissioning); nil for none.
        public var defaultThreadNetworkId: ExtendedPANID?

        /// Settings as given.
        public init(internetAccessOption: InternetAccessOption = .internetAccessOptionUnspecified,
                    defaultThreadNetworkId: ExtendedPANID? = nil) {
            self.internetAccessOption = internetAccessOption
            self.defaultThreadNetworkId = defaultThreadNetworkId
        }
    }

    /// The structure.
    public let structure: StructureID
    private let store: any StructureStore

    /// The settings of `structure` kept in `store`.
    public init(structure: StructureID, store: any StructureStore) {
        self.structure = structure
        self.store = store
    }

    /// Reads every setting.
    /// - Throws: ``HomeError`` `notFound` when the structure is gone.
    public func read() async throws(HomeError) -> Attributes { try await store.settings(of: structure) }

    /// Changes the settings in one step: `try await settings.update { $0.internetAccessOption = .internetAccessOptionNone }`.
    /// - Returns: the settings after the change.
    /// - Throws: ``HomeError`` `notFound` when the structure is gone.
    @discardableResult
    public func update(_ change: @escaping @Sendable (inout Attributes) -> Void) async throws(HomeError) -> Attributes {
        try await store.updateSettings(of: structure, change)
    }

    /// The internet access the routers should give.
    public var internetAccessOption: Attribute<InternetAccessOption> { attribute("internetAccessOption", \.internetAccessOption) }

    /// The preferred Thread network, by extended PAN ID.
    public var defaultThreadNetworkId: Attribute<ExtendedPANID?> { attribute("defaultThreadNetworkId", \.defaultThreadNetworkId) }

    /// Per border router of the structure: whether it holds the internet-access option (`applied`,
    /// `pending`, `failed`, `unsupported`, with a detail), sorted by router. Streamed as the reconciler
    /// records it.
    public var policyStatus: Attribute<[RouterPolicyStatus]> {
        let store = self.store
        let structure = self.structure
        return Attribute(
            name: "policyStatus", isSupported: { true },
            read: { () async throws(HomeError) -> [RouterPolicyStatus] in try await store.policyStatus(of: structure) },
            stream: { store.policyStatusUpdates(of: structure) })
    }

    private func attribute<T: Sendable & Equatable>(_ name: String, _ get: @escaping @Sendable (Attributes) -> T) -> Attribute<T> {
        let store = self.store
        let structure = self.structure
        return Attribute(
            name: name, isSupported: { true },
            read: { () async throws(HomeError) -> T in get(try await store.settings(of: structure)) },
            stream: { store.settingsUpdates(of: structure) { get($0) } })
    }
}
