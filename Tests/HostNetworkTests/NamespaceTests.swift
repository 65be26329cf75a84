import HostNetwork
import TBRFoundation
import TBRTestKit
import Testing

/// The readers against a real kernel: in a network namespace of each test's own, routes, sysctls and
/// links are set with `ip` and `sysctl`, the kernel's files are read inside the namespace (`ip netns
/// exec … cat`), and what the readers make of them is compared with what was set and with what
/// iproute2 reports over netlink. Skipped only when `ip` is not installed; needs root.
@Suite(.enabled(if: TestNamespace.ipPath != nil, "ip is not installed (Debian package iproute2)"))
struct NamespaceTests {
    @Test func theRoutesToAPrefixAreTheCoveringRoutesTheKernelUses() async throws {
        try await TestNamespace.with { ns in
            try await ns.inside(["link", "add", "v0", "type", "veth", "peer", "name", "v1"])
            for device in ["v0", "v1"] { try await ns.inside(["link", "set", device, "up"]) }
            try await ns.inside(["-6", "addr", "add", "fd11:22:33:1::1/64", "dev", "v0", "nodad"])
            for route in [
                ["fd11:22:33::/48", "dev", "v0"], ["default", "via", "fd11:22:33:1::fe", "dev", "v0"],
                ["unreachable", "fd11:22:33:2::/64"], ["blackhole", "fd11:22:33:3::/64"], ["prohibit", "fd11:22:33:4::/64"],
                ["fd11:22:33:4::/62", "dev", "v1", "metric", "50"],
                ["fd11:22:33:5::/64", "via", "fd11:22:33:1::fd", "dev", "v0", "metric", "9"],
                ["fd11:22:33:5::/64", "via", "fd11:22:33:1::fe", "dev", "v0", "metric", "7"],
                ["fd11:22:33:1:8000::/65", "via", "fd11:22:33:1::fe", "dev", "v0"],
            ] {
                try await ns.inside(["-6", "route", "add"] + route)
            }
            let text = try #require(try await ns.read("/proc/net/ipv6_route"))
            let routes = try IPv6RouteTable.parse(text)
            func to(_ prefix: String) throws -> [String] {
                IPv6RouteTable.routes(to: try #require(IPv6Prefix(prefix)), in: routes).map(\.description)
            }
            #expect(try to("fd11:22:33:1::/64") == ["fd11:22:33:1::/64 dev v0 metric 256", "fd11:22:33::/48 dev v0 metric 1024"])
            #expect(try to("fd11:22:33:5::/64") == [
                "fd11:22:33:5::/64 via fd11:22:33:1::fe dev v0 metric 7", "fd11:22:33:5::/64 via fd11:22:33:1::fd dev v0 metric 9",
                "fd11:22:33:4::/62 dev v1 metric 50", "fd11:22:33::/48 dev v0 metric 1024",
            ])
            #expect(try to("fd11:22:33:6::/64") == ["fd11:22:33:4::/62 dev v1 metric 50", "fd11:22:33::/48 dev v0 metric 1024"])
            #expect(try to("fd11:22:33:2::/64") == [], "unreachable")
            #expect(try to("fd11:22:33:3::/64") == [], "blackhole")
            #expect(try to("fd11:22:33:4::/64") == [], "prohibit, though a /62 and the /48 cover it")
            #expect(try to("fd99::/64") == [], "only the default route leads there")

            // The first route is the one the kernel's lookup picks for an address in the prefix; with
            // none, the lookup is refused (reject routes; the default route is left out on purpose).
            for (prefix, address) in [
                ("fd11:22:33:1::/64", "fd11:22:33:1::2"), ("fd11:22:33:5::/64", "fd11:22:33:5::1"), ("fd11:22:33:6::/64", "fd11:22:33:6::1"),
                ("fd11:22:33:2::/64", "fd11:22:33:2::1"), ("fd11:22:33:3::/64", "fd11:22:33:3::1"), ("fd11:22:33:4::/64", "fd11:22:33:4::1"),
            ] {
                let lookup = try await ns.attempt(["-6", "route", "get", address])
                guard let first = IPv6RouteTable.routes(to: try #require(IPv6Prefix(prefix)), in: routes).first else {
                    #expect(lookup.status != 0, "\(address): \(lookup.stdout)")
                    continue
                }
                let words = lookup.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
                func after(_ word: String) -> String? { words.firstIndex(of: word).map { $0 + 1 < words.count ? words[$0 + 1] : "" } }
                #expect(lookup.status == 0 && after("dev") == first.interface && after("metric") == String(first.metric)
                    && after("via") == first.gatewayDescription, "\(address): \(lookup.stdout) \(lookup.stderr) against \(first)")
            }

            // Every route iproute2 lists (from netlink) is one the parser read, field for field.
            let listed = try JSON(parsing: try await ns.inside(["-j", "-6", "route", "show", "table", "all"])).array ?? []
            #expect(listed.count >= 14)
            for entry in listed {
                let dst = entry["dst"]?.string ?? "?"
                let destination = dst == "default" ? "::/0" : dst.contains("/") ? dst : dst + "/128"
                let rejects = ["unreachable", "blackhole", "prohibit"].contains(entry["type"]?.string ?? "unicast")
                #expect(
                    routes.contains { route in
                        route.destination == IPv6Prefix(destination) && route.interface == entry["dev"]?.string
                            && Int64(route.metric) == entry["metric"]?.int64 && route.gatewayDescription == entry["gateway"]?.string
                            && route.flags.contains(.reject) == rejects && route.flags.contains(.gateway) == (entry["gateway"] != nil)
                    }, "\(entry) in \(routes)")
            }
        }
    }

    /// Needs a kernel with CONFIG_IPV6_ROUTE_INFO (Debian's has it): its defaults are checked.
    @Test func routeInformationSettingsSetInANamespaceReadBackAsSet() async throws {
        let before = try InterfaceIPv6Settings.read(interface: "all")
        try await TestNamespace.with { ns in
            try await ns.inside(["link", "add", "v0", "type", "veth", "peer", "name", "v1"])
            let tree = try FileTree()
            defer { tree.remove() }
            /// v0's files as the namespace shows them, copied into the tree (each checked against
            /// `sysctl -n`) and read from there.
            func settings() async throws -> InterfaceIPv6Settings {
                var files: [String: String] = [:]
                for name in InterfaceIPv6Settings.fileNames {
                    guard let text = try await ns.read("/proc/sys/net/ipv6/conf/v0/" + name) else { continue }
                    try tree.write("v0/" + name, text)
                    files[name] = text
                    #expect(text == (try await ns.sysctl("net.ipv6.conf.v0." + name)) + "\n", "\(name)")
                }
                let read = try InterfaceIPv6Settings.read(interface: "v0", root: tree.root.path)
                #expect(try InterfaceIPv6Settings.parse(files: files) == read)
                return read
            }
            let fresh = try await settings()
            #expect(fresh == InterfaceIPv6Settings(
                acceptRA: 1, forwarding: 0, acceptRARouteInfoMaxPrefixLength: 0, acceptRARouteInfoMinPrefixLength: 0,
                acceptRARouterPreference: 1), "the kernel's defaults in a new namespace")
            #expect(fresh.learnsRoutesFromRA && !fresh.acceptsOMRRoutes, "by default Linux ignores Route Information Options")

            let key = "net.ipv6.conf.v0."
            try await ns.sysctl(key + "accept_ra_rt_info_max_plen", 64)
            var now = try await settings()
            #expect(now.acceptRARouteInfoMaxPrefixLength == 64 && now.acceptsOMRRoutes)
            try await ns.sysctl(key + "forwarding", 1)
            now = try await settings()
            #expect(now.forwarding == 1 && !now.learnsRoutesFromRA && !now.acceptsOMRRoutes, "a router ignores RAs")
            try await ns.sysctl(key + "accept_ra", 2)
            now = try await settings()
            #expect(now.acceptRA == 2 && now.learnsRoutesFromRA && now.acceptsOMRRoutes, "unless accept_ra is 2")
            try await ns.sysctl(key + "accept_ra_rtr_pref", 0)
            now = try await settings()
            #expect(now.acceptRARouterPreference == 0 && !now.acceptsOMRRoutes)
            try await ns.sysctl(key + "accept_ra_rtr_pref", 1)
            try await ns.sysctl(key + "accept_ra_rt_info_min_plen", 65)
            now = try await settings()
            #expect(now.acceptRARouteInfoMinPrefixLength == 65 && !now.acceptsOMRRoutes)
            // The kernel stores values outside the documented ones as they are.
            try await ns.sysctl(key + "forwarding", 0)
            try await ns.sysctl(key + "accept_ra", 3)
            try await ns.sysctl(key + "accept_ra_rt_info_max_plen", 129)
            now = try await settings()
            #expect(now.acceptRA == 3 && now.acceptRARouteInfoMaxPrefixLength == 129 && now.learnsRoutesFromRA)
        }
        #expect(try InterfaceIPv6Settings.read(interface: "all") == before, "this namespace's settings are untouched")
    }

    @Test func theInterfacesOfANamespaceAreWhatIpLinkSays() async throws {
        try await TestNamespace.with { ns in
            try await ns.inside(["link", "add", "v0", "type", "veth", "peer", "name", "v1"])
            try await ns.inside(["link", "add", "w0", "type", "veth", "peer", "name", "w1"])
            for device in ["v0", "w0", "w1"] { try await ns.inside(["link", "set", device, "up"]) }
            try await eventually("w0 and w1 are operationally up", timeout: .seconds(10)) {
                let links = try JSON(parsing: try await ns.inside(["-j", "link"])).array ?? []
                return links.filter { ["w0", "w1"].contains($0["ifname"]?.string) && $0["operstate"]?.string == "UP" }.count == 2
            }
            let tree = try FileTree()
            defer { tree.remove() }
            for name in ["lo", "v0", "v1", "w0", "w1"] {
                for file in ["ifindex", "flags", "operstate"] {
                    try tree.write(name + "/" + file, try #require(try await ns.read("/sys/class/net/\(name)/\(file)")))
                }
            }
            let interfaces = HostInterface.list(root: tree.root.path)
            let links = try JSON(parsing: try await ns.inside(["-j", "link"])).array ?? []
            let expected = links.compactMap { link -> HostInterface? in
                guard let name = link["ifname"]?.string, let index = link["ifindex"]?.int64 else { return nil }
                let flags = (link["flags"]?.array ?? []).compactMap(\.string)
                let state = link["operstate"]?.string ?? ""
                return HostInterface(
                    name: name, index: Int(index), isUp: flags.contains("UP") && (state == "UP" || state == "UNKNOWN"),
                    isLoopback: flags.contains("LOOPBACK"))
            }
            #expect(interfaces == expected.sorted { $0.index < $1.index })
            #expect(interfaces.map { "\($0.name) \($0.isUp) \($0.isLoopback)" }.sorted() == [
                "lo true true", "v0 false false", "v1 false false", "w0 true false", "w1 true false",
            ], "v0 is up without carrier, v1 is down")
        }
    }
}
