import Firewall
import TBRFoundation
import Testing

/// The nftables script tbrd feeds to `nft -f -`: one table of its own, replaced as a whole. (The
/// namespace tests in TBRDaemonTests load it into a real kernel and send traffic through it.)
@Suite struct RulesetTests {
    static let lan = LinkAddresses(
        ipv6: [IPv6Prefix("fd00:1::/64")!, IPv6Prefix("2001:db8:1::/64")!], ipv4: [IPv4Subnet("192.0.2.0/24")!])

    @Test func theScriptReplacesTableInetTbrdAndNamesNoOtherTable() throws {
        let ruleset = FirewallRuleset([
            .init(threadInterface: "wpan1", restriction: .noGlobalIPv6, lan: Self.lan),
            .init(threadInterface: "wpan0", restriction: .lanOnly, lan: Self.lan),
        ])
        let script = try ruleset.script()
        #expect(script == """
            # tbrd's internet-access policy (docs/operations.md). tbrd replaces this table as a whole.
            table inet tbrd
            delete table inet tbrd
            table inet tbrd {
            \tchain forward {
            \t\ttype filter hook forward priority filter; policy accept;
            \t\tiifname "wpan0" jump thread_wpan0
            \t\tiifname "wpan1" jump thread_wpan1
            \t}
            \tchain thread_wpan0 {
            \t\tip6 daddr fe80::/10 return
            \t\tip6 daddr fc00::/7 return
            \t\tip6 daddr 2001:db8:1::/64 return
            \t\tip6 daddr fd00:1::/64 return
            \t\tip daddr 169.254.0.0/16 return
            \t\tip daddr 192.0.2.0/24 return
            \t\tdrop
            \t}
            \tchain thread_wpan1 {
            \t\tip6 daddr 2001:db8:1::/64 return
            \t\tip6 daddr fd00:1::/64 return
            \t\tip6 daddr 2000::/3 drop
            \t}
            }

            """)
        let tables = script.split(separator: "\n").filter { $0.hasPrefix("table") || $0.hasPrefix("delete") }
        #expect(tables.allSatisfy { $0.contains("inet tbrd") })
    }

    @Test func anEmptyRulesetRemovesTheTableWhetherOrNotItExists() throws {
        #expect(try FirewallRuleset().script() == """
            # tbrd's internet-access policy (docs/operations.md). tbrd replaces this table as a whole.
            table inet tbrd
            delete table inet tbrd

            """)
    }

    @Test func interfaceNamesThatCouldChangeTheScriptAreRefused() {
        for bad in ["", "wpan0\"; flush ruleset", "wpan 0", "a-very-long-interface-name", "wpan0\n"] {
            #expect(throws: FirewallError.self, "\(bad)") {
                _ = try FirewallRuleset([.init(threadInterface: bad, restriction: .lanOnly, lan: .none)]).script()
            }
        }
    }

    @Test func prefixesAreMaskedAndPrintedAsTheKernelPrintsThem() {
        #expect(IPv6Prefix("2001:db8:1::42/64")?.description == "2001:db8:1::/64")
        #expect(IPv6Prefix("fd00:1:2:3:4:5:6:7/52")?.description == "fd00:1:2::/52")
        #expect(IPv6Prefix("fe80::1/64")?.isLinkLocal == true)
        #expect(IPv6Prefix("2001:db8::/129") == nil && IPv6Prefix("nonsense/64") == nil)
        #expect(IPv4Subnet("192.0.2.77/24")?.description == "192.0.2.0/24")
        #expect(IPv4Subnet("198.51.100.129/25")?.description == "198.51.100.128/25")
        #expect(IPv4Subnet("192.0.2/24") == nil && IPv4Subnet("192.0.2.1/33") == nil)
        // Sorted and without duplicates.
        let lan = LinkAddresses(ipv6: [IPv6Prefix("fd00::/8")!, IPv6Prefix("2001:db8::/32")!, IPv6Prefix("fd00::/8")!])
        #expect(lan.ipv6.map(\.description) == ["2001:db8::/32", "fd00::/8"])
    }

    @Test func theLoopbackInterfaceHasItsAddressesAndAMissingOneHasNone() throws {
        let read = try LinkAddresses.read(["lo", "tbrd-no-such0"])
        #expect(read["lo"]?.ipv4 == [IPv4Subnet("127.0.0.0/8")!])
        #expect(read["tbrd-no-such0"] == LinkAddresses.none)
    }
}
