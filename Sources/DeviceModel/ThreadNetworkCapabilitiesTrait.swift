/// What a border router can do for a Thread network: whether it supports ePSKc and what internet
/// access it can give (Google Home API `ThreadNetworkCapabilitiesTrait`). Read-only.
///
/// ```swift
/// let caps = br.traits(ThreadNetworkCapabilitiesTrait.self)!
/// let epskcSupported = try await caps.epskcSupported.read()
/// let option = try await caps.internetAccessOption.read()     // .none / .all / .nat64Only / .dhcpv6PdOnly
/// ```
public struct ThreadNetworkCapabilitiesTrait: Trait {
    /// The identifier, `ThreadNetworkCapabilities`.
    public static var identifier: String { "ThreadNetworkCapabilities" }

    /// The broadest internet access a router can give the mesh (Google's case names, plus `unspecified`).
    public enum InternetAccessOption: String, Hashable, Sendable, Codable, CaseIterable {
        /// The router did not say.
        case unspecified
        /// No internet access: neither NAT64 nor DHCPv6 prefix delegation.
        case none
        /// IPv4 through NAT64 and global IPv6 through DHCPv6 prefix delegation.
        case all
        /// IPv4 internet through NAT64 only.
        case nat64Only
        /// Global IPv6 through DHCPv6 prefix delegation only.
        case dhcpv6PdOnly

        /// The option of a router built with these features (otbr-agent's `Capabilities`: `nat64`,
        /// `dhcp6_pd`): both → `all`, one → `nat64Only` / `dhcpv6PdOnly`, neither → `none`.
        public init(nat64: Bool, dhcpv6PrefixDelegation: Bool) {
            switch (nat64, dhcpv6PrefixDelegation) {
            case (true, true): self = .all
            case (true, false): self = .nat64Only
            case (false, true): self = .dhcpv6PdOnly
            case (false, false): self = .none
            }
        }
    }

    /// Every attribute of the trait at once.
    public struct Attributes: Hashable, Sendable, Codable {
        /// Whether the router supports ePSKc.
        public var epskcSupported: Bool
        /// The broadest internet access the router can give.
        public var internetAccessOption: InternetAccessOption

        /// Attributes as given.
        public init(epskcSupported: Bool, internetAccessOption: InternetAccessOption) {
            self.epskcSupported = epskcSupported
            self.internetAccessOption = internetAccessOption
        }
    }

    private let backend: any BorderRouterBackend

    /// The trait of the router behind `backend`.
    public init(backend: any BorderRouterBackend) { self.backend = backend }

    /// Whether the router supports ePSKc (otbr-agent: built with it and the feature on). Every router
    /// answers this, so the attribute itself is always supported.
    public var epskcSupported: Attribute<Bool> {
        let backend = self.backend
        return Attribute(
            name: "epskcSupported", isSupported: { true },
            read: { () async throws(HomeError) -> Bool in try await backend.capabilities().epskcSupported },
            stream: { backend.capabilitiesUpdates { $0.epskcSupported } })
    }

    /// The broadest internet access the router can give (otbr-agent: from `Capabilities`). Not supported
    /// by an agent without the `Capabilities` property.
    public var internetAccessOption: Attribute<InternetAccessOption> {
        let backend = self.backend
        return Attribute(
            name: "internetAccessOption", isSupported: { backend.support.internetAccessCapabilities },
            read: { () async throws(HomeError) -> InternetAccessOption in
                try await backend.capabilities().internetAccessOption
            },
            stream: { backend.capabilitiesUpdates { $0.internetAccessOption } })
    }

    /// Reads every attribute from the router.
    /// - Throws: ``HomeError`` `unavailable` when the router cannot be reached.
    public func read() async throws(HomeError) -> Attributes { try await backend.capabilities() }
}
