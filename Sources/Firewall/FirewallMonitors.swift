import HostNetwork

/// Address changes from the kernel: rtnetlink's IPv4 and IPv6 address groups (`RTMGRP_IPV4_IFADDR`,
/// `RTMGRP_IPV6_IFADDR`, rtnetlink(7)).
enum AddressMonitor {
    /// Yields once per burst of address changes; nil when they cannot be followed.
    static func changes() -> AsyncStream<Void>? {
        // NETLINK_ROUTE; RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR (linux/rtnetlink.h).
        NetlinkMonitor.changes(netlinkProtocol: 0, groups: 0x10 | 0x100, label: "tbrd.address-monitor")
    }
}

/// Ruleset changes from the kernel: nfnetlink's `NFNLGRP_NFTABLES` group, which announces every
/// nftables transaction (a table, chain, rule or set added, changed or deleted, `nft flush ruleset`
/// among them) in the network namespace. Binding to it needs `CAP_NET_ADMIN`, which tbrd has.
enum RulesetMonitor {
    /// Yields once per burst of ruleset changes; nil when they cannot be followed.
    static func changes() -> AsyncStream<Void>? {
        // NETLINK_NETFILTER (12); NFNLGRP_NFTABLES is group 7, bit 1 << (7 - 1) (linux/netfilter/nfnetlink.h).
        NetlinkMonitor.changes(netlinkProtocol: 12, groups: 1 << 6, label: "tbrd.ruleset-monitor")
    }
}
