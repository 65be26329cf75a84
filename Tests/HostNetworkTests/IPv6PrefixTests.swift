import HostNetwork
import TBRFoundation
import Testing

/// `IPv6Prefix` (TBRFoundation's, shared with the firewall): text in `inet_pton`'s forms, canonical
/// `inet_ntop` text out, host bits cleared, and containment.
@Suite struct IPv6PrefixTests {
    @Test func textIsReadByInetPtonAndWrittenCanonically() {
        #expect(IPv6Prefix("fd11:22::/64")?.description == "fd11:22::/64")
        #expect(IPv6Prefix("FD11:0022:0000:0000:0000:0000:0000:0001/64")?.description == "fd11:22::/64", "host bits cleared")
        #expect(IPv6Prefix("fd11:22:33:44:55:66:77:88/52")?.description == "fd11:22:33::/52")
        #expect(IPv6Prefix("::/0")?.description == "::/0")
        #expect(IPv6Prefix("::ffff:192.0.2.1/128")?.description == "::ffff:192.0.2.1/128")
        #expect(IPv6Prefix("fd11:22::1/128")?.bytes == [0xFD, 0x11, 0, 0x22, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        for text in ["fd11::/129", "fd11::", "/64", "fd11::/-1", "fd11::/+64", "fd11::/64 ", " fd11::/64", "fd11::/", "fd11::/6 4",
            "192.0.2.0/24", "fd11:::1/64", "fd11::/64/64", "fd11::%eth0/64", "",
        ] {
            #expect(IPv6Prefix(text) == nil, "\(text) is not an IPv6 prefix")
        }
    }

    @Test func aPrefixContainsTheLongerPrefixesInsideIt() throws {
        func p(_ text: String) throws -> IPv6Prefix { try #require(IPv6Prefix(text)) }
        let p48 = try p("fd11:22:33::/48")
        #expect(p48.contains(try p("fd11:22:33:1::/64")))
        #expect(p48.contains(try p("fd11:22:33:ffff:1::/80")))
        #expect(p48.contains(p48), "a prefix contains itself")
        #expect(!p48.contains(try p("fd11:22:34:1::/64")), "outside")
        #expect(!p48.contains(try p("fd11:22::/32")), "shorter, though it holds the /48")
        #expect(try p("fd11:22::/32").contains(p48))
        #expect(try p("::/0").contains(p48), "::/0 contains everything")
        #expect(try p("::/0").contains(try p("::/0")))
        // Bit boundaries inside a byte: fd11:22:33::/63 holds :0 and :1, not :2.
        let p63 = try p("fd11:22:33::/63")
        #expect(p63.contains(try p("fd11:22:33:1::/64")))
        #expect(!p63.contains(try p("fd11:22:33:2::/64")))
        let host = try p("fd11:22:33:1::1/128")
        let other = try p("fd11:22:33:1::2/128")
        #expect(host.contains(host) && !host.contains(other))
    }
}
