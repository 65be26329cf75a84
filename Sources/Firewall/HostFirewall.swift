/// The host firewall as the policy reconciler uses it: replace tbrd's ruleset as a whole, see whether it
/// is still what was put there, read the LAN's on-link prefixes, and follow their changes. ``NFTables``
/// is the implementation over `nft`; the seam lets the service run without a host firewall.
public protocol HostFirewall: Sendable {
    /// Replaces tbrd's whole ruleset with `ruleset` in one transaction (removes it when empty).
    /// - Returns: how the ruleset reads back right after (compared by ``isIntact(_:)``).
    /// - Throws: ``FirewallError``.
    func replace(with ruleset: FirewallRuleset) async throws(FirewallError) -> FirewallSnapshot

    /// Whether tbrd's ruleset still reads back as `snapshot` (nobody changed or removed it).
    /// - Throws: ``FirewallError`` when it cannot be read.
    func isIntact(_ snapshot: FirewallSnapshot) async throws(FirewallError) -> Bool

    /// The on-link prefixes of each interface in `interfaces`, from the kernel, now.
    /// - Throws: ``FirewallError``.
    func linkAddresses(_ interfaces: Set<String>) throws(FirewallError) -> [String: LinkAddresses]

    /// Yields whenever an address is added to or removed from any interface, until the task is
    /// cancelled; nil when changes cannot be followed (the caller then re-reads on its own timer).
    func addressChanges() -> AsyncStream<Void>?

    /// Yields whenever the host's firewall ruleset changes (anyone's: tbrd's own replaces too), until the
    /// task is cancelled; nil when changes cannot be followed (the caller then checks on its own timer).
    func rulesetChanges() -> AsyncStream<Void>?
}

/// tbrd's ruleset as it read back: `nft list table inet tbrd`, or nil when there is no table.
public struct FirewallSnapshot: Hashable, Sendable {
    /// The listing, nil when the table does not exist (or could not be read: ``wasRead``).
    public var listing: String?
    /// False when nothing could read the ruleset (no `nft` to remove an empty ruleset with): whatever
    /// table an earlier run left is still there, unknown.
    public var wasRead: Bool

    /// A snapshot of `listing`.
    public init(listing: String?, wasRead: Bool = true) {
        self.listing = listing
        self.wasRead = wasRead
    }
}
