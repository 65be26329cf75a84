/// tbrd's whole host firewall: one nftables table, `table inet tbrd`, holding a drop chain for each
/// Thread interface whose structure restricts internet access. Rendered as one `nft -f` script that
/// replaces the table atomically (or removes it when there is nothing to enforce) and never names any
/// other table.
public struct FirewallRuleset: Hashable, Sendable {
    /// The table's family and name: `inet tbrd`.
    public static let table = "inet tbrd"

    /// What forwarded traffic from one Thread interface may reach.
    public enum Restriction: String, Hashable, Sendable {
        /// `none`: only link-local (`fe80::/10`, `169.254.0.0/16`), ULA (`fc00::/7`) and the LAN's own
        /// on-link prefixes and IPv4 subnets; everything else is dropped.
        case lanOnly
        /// `nat64Only`: IPv6 to global unicast (`2000::/3`) outside the LAN's on-link prefixes is
        /// dropped; IPv4 (what NAT64 sends) and the rest pass.
        case noGlobalIPv6
    }

    /// One Thread interface's rules.
    public struct Entry: Hashable, Sendable {
        /// The Thread interface traffic comes in on (`iifname`), e.g. `wpan0`.
        public var threadInterface: String
        /// What it may reach.
        public var restriction: Restriction
        /// The on-link prefixes of its router's infrastructure (LAN) interface.
        public var lan: LinkAddresses

        /// An entry as given.
        public init(threadInterface: String, restriction: Restriction, lan: LinkAddresses) {
            self.threadInterface = threadInterface
            self.restriction = restriction
            self.lan = lan
        }
    }

    /// The entries, one per Thread interface, sorted by interface.
    public let entries: [Entry]

    /// A ruleset of `entries` (sorted by interface; a later entry for the same interface wins).
    public init(_ entries: [Entry] = []) {
        var byInterface: [String: Entry] = [:]
        for e in entries { byInterface[e.threadInterface] = e }
        self.entries = byInterface.values.sorted { $0.threadInterface < $1.threadInterface }
    }

    /// Whether there is nothing to enforce (the table is removed).
    public var isEmpty: Bool { entries.isEmpty }

    /// The `nft -f -` script: the table created if absent and deleted (so the script works whether or
    /// not it exists), then, when there are entries, defined anew; all in the one transaction `nft -f`
    /// makes of a script.
    /// - Throws: ``FirewallError/invalidRuleset(_:)`` for an interface name nftables could misread.
    public func script() throws(FirewallError) -> String {
        var lines = [
            "# tbrd's internet-access policy (docs/operations.md). tbrd replaces this table as a whole.",
            "table \(Self.table)",
            "delete table \(Self.table)",
        ]
        guard !entries.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        for e in entries { try Self.check(e.threadInterface) }
        lines.append("table \(Self.table) {")
        lines.append("\tchain forward {")
        lines.append("\t\ttype filter hook forward priority filter; policy accept;")
        for e in entries { lines.append("\t\tiifname \"\(e.threadInterface)\" jump \(Self.chain(e.threadInterface))") }
        lines.append("\t}")
        for e in entries {
            lines.append("\tchain \(Self.chain(e.threadInterface)) {")
            for rule in Self.rules(e) { lines.append("\t\t" + rule) }
            lines.append("\t}")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The chain of one Thread interface.
    static func chain(_ interface: String) -> String { "thread_\(interface)" }

    static func rules(_ e: Entry) -> [String] {
        let lan6 = e.lan.ipv6.map { "ip6 daddr \($0) return" }
        switch e.restriction {
        case .lanOnly:
            return ["ip6 daddr fe80::/10 return", "ip6 daddr fc00::/7 return"] + lan6
                + ["ip daddr 169.254.0.0/16 return"] + e.lan.ipv4.map { "ip daddr \($0) return" } + ["drop"]
        case .noGlobalIPv6:
            return lan6 + ["ip6 daddr 2000::/3 drop"]
        }
    }

    /// Thread interface names (as otbr-agent takes them) are at most 15 bytes (`IFNAMSIZ` - 1) of letters,
    /// digits and `_`; anything else could change the meaning of the script.
    static func check(_ interface: String) throws(FirewallError) {
        let allowed = interface.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
        }
        guard !interface.isEmpty, interface.utf8.count <= 15, allowed else {
            throw .invalidRuleset("\"\(interface)\" is not an interface name")
        }
    }
}
