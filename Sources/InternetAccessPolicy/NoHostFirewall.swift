public import Firewall

/// No host firewall: the internet-access policy is enforced on the agents only (NAT64, DHCPv6-PD), and
/// each status says that tbrd's firewall is off. The value a service is built with when it manages no
/// firewall (tbrd's `firewall = off`, tbrctl's direct mode); the policy reconciler asks it nothing.
public struct NoHostFirewall: HostFirewall {
    /// No firewall.
    public init() {}

    /// Changes nothing; reads back as no table.
    public func replace(with ruleset: FirewallRuleset) async throws(FirewallError) -> FirewallSnapshot {
        FirewallSnapshot(listing: nil)
    }

    /// Nothing to change: intact.
    public func isIntact(_ snapshot: FirewallSnapshot) async throws(FirewallError) -> Bool { true }

    /// Reads nothing.
    public func linkAddresses(_ interfaces: Set<String>) throws(FirewallError) -> [String: LinkAddresses] { [:] }

    /// Nothing to follow.
    public func addressChanges() -> AsyncStream<Void>? { nil }

    /// Nothing to follow.
    public func rulesetChanges() -> AsyncStream<Void>? { nil }
}
