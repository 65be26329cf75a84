import HostNetwork
import TBRFoundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `IPv6RouteTable`: `/proc/net/ipv6_route` parsed field by field, malformed lines named by number,
/// the routes that lead to a prefix, and the format written back.
@Suite struct RouteTableTests {
    /// Lines a 6.18 kernel wrote in a test namespace (veth v0, fd11:22:33:1::1/64 on it).
    static let sample = """
        fd110022003300050000000000000000 40 20010db8000000000000000000000000 40 00000000000000000000000000000000 00000400 00000002 00000000 00000001       v0
        00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000003 00000000 00200200       lo
        fd110022003300010000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000003 00000000 00000001       v0
        fd110022003300020000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00200200       lo
        fd110022003300050000000000000000 40 00000000000000000000000000000000 00 fd1100220033000100000000000000fe 00000007 00000002 00000000 00000003       v0
        fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001       v0
        00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd1100220033000100000000000000fe 00000400 00000001 00000000 00000003       v0
        00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
        ff000000000000000000000000000000 08 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000003 00000000 00000001       v0

        """

    static func prefix(_ text: String) -> IPv6Prefix { IPv6Prefix(text)! }

    @Test func theKernelsLinesParseIntoRoutes() throws {
        let routes = try IPv6RouteTable.parse(Self.sample)
        try #require(routes.count == 9)
        #expect(routes[0].destination == Self.prefix("fd11:22:33:5::/64") && routes[0].source == Self.prefix("2001:db8::/64"))
        #expect(routes[1].isDefault && routes[1].metric == 0xFFFF_FFFF && routes[1].flags == [.reject, .noNextHop])
        #expect(routes[2] == IPv6Route(destination: Self.prefix("fd11:22:33:1::/64"), metric: 256, flags: .up, interface: "v0"))
        #expect(routes[4].gatewayDescription == "fd11:22:33:1::fe" && routes[4].flags == [.up, .gateway] && routes[4].metric == 7)
        #expect(routes[5].destination == Self.prefix("fd11:22:33::/48"))
        #expect(routes[6].isDefault && routes[6].gateway != nil)
        #expect(routes[7].flags == [.up, .noNextHop, .local] && routes[7].destination.length == 128 && routes[7].interface == "lo")
        #expect(routes[4].description == "fd11:22:33:5::/64 via fd11:22:33:1::fe dev v0 metric 7")
        #expect(routes[3].description == "reject fd11:22:33:2::/64 dev lo metric 1024")
        #expect(routes[0].description == "fd11:22:33:5::/64 from 2001:db8::/64 dev v0 metric 1024")
        #expect(try IPv6RouteTable.parse("") == [] && IPv6RouteTable.parse("\n\n  \n") == [])
    }

    @Test func aRouteWithoutADeviceHasNoInterface() throws {
        let line = "fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001         \n"
        #expect(try IPv6RouteTable.parse(line).first?.interface == nil)
    }

    @Test(arguments: [
        ("fd11002200330000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0", "destination"),
        ("fd11002200330000000000000000000g 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0", "destination"),
        ("fd110022003300000000000000000000 81 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0", "over 128"),
        ("fd110022003300000000000000000000 030 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0", "prefix length"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 ff 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0", "over 128"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 0000000000000000000000000000000x 00000400 00000001 00000000 00000001 v0", "next hop"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 400 00000001 00000000 00000001 v0", "metric"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 -0000001 00000000 00000001 v0", "reference count"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 0000000z 00000001 v0", "use count"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 0x000001 v0", "flags"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 a-very-long-name", "longer than 15"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v/0", "slash"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 00000001 v0 extra", "not 11"),
        ("fd110022003300000000000000000000 30 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400", "not 6"),
        ("default via fe80::1 dev eth0 proto ra metric 1024 expires 1798sec pref medium", "not 13"),
    ])
    func aMalformedLineIsAnErrorNamingItsNumber(line: String, why: String) {
        let good = "00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo"
        let text = good + "\n\n" + line + "\n" + good + "\n"
        #expect {
            try IPv6RouteTable.parse(text)
        } throws: { error in
            guard let error = error as? HostNetworkError, case .malformed(let reason) = error.reason else { return false }
            return error.line == 3 && error.file == nil && reason.contains(why)
                && String(describing: error).hasPrefix("line 3 of the IPv6 route table: ")
        }
    }

    /// Every cut of the sample either parses (when the cut falls at a line's end, or inside the
    /// device name of the last line) or fails naming the last line: never a crash, never a wrong line.
    @Test func everyCutOfTheTableParsesOrNamesItsLastLine() throws {
        let full = try IPv6RouteTable.parse(Self.sample)
        let bytes = Array(Self.sample.utf8)
        // Every line end and a spread of cuts inside lines (the fuzz target tries every byte): the whole
        // table cut at every byte cost seconds of a shared test machine's CPU for no more coverage.
        let lineEnds = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.flatMap { [$0, $0 + 1] }
        let cuts = Set(Array(stride(from: 0, through: bytes.count, by: 11)) + lineEnds + [bytes.count]).sorted()
        for cut in cuts where cut <= bytes.count {
            let text = String(decoding: bytes[..<cut], as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            do {
                let routes = try IPv6RouteTable.parse(text)
                #expect(Array(routes.dropLast()) == Array(full.prefix(max(0, routes.count - 1))), "cut at \(cut)")
                if let last = routes.last { #expect(last.destination == full[routes.count - 1].destination, "cut at \(cut)") }
            } catch {
                #expect(error.line == lines, "cut at \(cut): \(error)")
            }
        }
    }

    @Test func formattedRoutesParseBackTheSame() throws {
        var routes = try IPv6RouteTable.parse(Self.sample)
        routes.append(IPv6Route(destination: Self.prefix("2001:db8:ffff::/48"), metric: 1, flags: [.up, .reject], interface: nil))
        routes.append(IPv6Route(
            destination: Self.prefix("fd00:abcd::/64"), gateway: Array(repeating: 0xAB, count: 16), metric: 42,
            flags: IPv6Route.Flags(rawValue: 0x08C0_0003), interface: "wpan0"))
        #expect(try IPv6RouteTable.parse(IPv6RouteTable.format(routes)) == routes)
        // The kernel's own lines come back byte for byte but for the reference count (columns 114…121).
        let kernelLines = Self.sample.split(separator: "\n").map { line in
            String(line.prefix(114)) + "00000000" + String(line.dropFirst(122))
        }
        let formatted = IPv6RouteTable.format(try IPv6RouteTable.parse(Self.sample)).split(separator: "\n").map(String.init)
        #expect(formatted == kernelLines)
    }

    @Test func theRoutesToAPrefixAreTheCoveringSpecificOnesMostSpecificFirst() throws {
        func route(_ destination: String, metric: UInt32 = 1024, flags: IPv6Route.Flags = .up, source: String = "::/0") -> IPv6Route {
            IPv6Route(destination: Self.prefix(destination), source: Self.prefix(source), metric: metric, flags: flags, interface: "eth0")
        }
        let table = [
            route("::/0"), route("::/0", metric: 0xFFFF_FFFF, flags: [.reject, .noNextHop]),
            route("fd11:22:33::/48"), route("fd11::/16", metric: 5), route("fd11:22:33:1::/64", metric: 600),
            route("fd11:22:33:1::/64", metric: 100), route("fd11:22:33:1::/64", metric: 100, flags: [.up, .routeInformation]),
            route("fd11:22:33:1::5/128"), route("fd11:22:34::/48"), route("fd11:22:33:1::/64", metric: 1, flags: []),
            // Reject routes: a /64 shadows the /48 above it; one with a lower metric shadows its equal;
            // a source-specific one shadows nothing.
            route("fd11:22:33:2::/64", flags: [.reject]), route("fd11:22:33:3::/64", metric: 50),
            route("fd11:22:33:3::/64", metric: 10, flags: [.reject]), route("fd11:22:33:4::/64", metric: 10, flags: [.reject]),
            route("fd11:22:33:4::/64", metric: 5), route("fd11:22:33:6::/64", flags: [.reject], source: "2001:db8::/64"),
        ]
        let omr = Self.prefix("fd11:22:33:1::/64")
        #expect(IPv6RouteTable.routes(to: omr, in: table) == [table[5], table[6], table[4], table[2], table[3]])
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22:33:1:8000::/65"), in: table) == [table[5], table[6], table[4], table[2], table[3]])
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22:33:2::/64"), in: table) == [], "shadowed by a reject /64")
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22:33:3::/64"), in: table) == [], "the reject route has the lower metric")
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22:33:4::/64"), in: table) == [table[14]], "the route has the lower metric")
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22:33:6::/64"), in: table) == [table[2], table[3]])
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd99::/64"), in: table) == [], "the default route does not count")
        #expect(IPv6RouteTable.routes(to: Self.prefix("fd11:22::/32"), in: table) == [table[3]], "a /48 does not cover a /32")
    }

    @Test func thisNamespacesRouteTableIsRead() throws {
        let routes = try IPv6RouteTable.read()
        #expect(routes.contains { $0.destination == Self.prefix("::1/128") && $0.interface == "lo" && $0.flags.contains(.local) })
    }

    @Test func aFileThatCannotBeReadIsNamed() {
        #expect {
            try IPv6RouteTable.read(path: "/nonexistent/ipv6_route")
        } throws: { error in
            (error as? HostNetworkError)?.reason == .unreadable(errno: ENOENT)
                && String(describing: error) == "cannot read /nonexistent/ipv6_route: No such file or directory"
        }
    }
}
