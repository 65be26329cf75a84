import DBus
import TBRFoundation
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Four network namespaces of the test's own, joined by veth pairs, with documentation and ULA
/// addresses only:
///
/// ```
/// mesh host ── m0 ═ wpan0 ── router (tbrd, nft, forwarding on) ── lan0 ═ l0 ── LAN host
///  fd11:22::2/64         fd11:22::1/64          fd00:1::1/64, 2001:db8:1::1/64     fd00:1::2, 2001:db8:1::2
///  198.51.100.2/24       198.51.100.1/24        192.0.2.1/24                        192.0.2.2
///                                         └─ wan0 ═ i0 ── internet host 2001:db8:ffff::2/64, 203.0.113.2/24
/// ```
///
/// The router's `wpan0` stands for the Thread interface, `lan0` for the infrastructure link. Names carry
/// the test process's id, so parallel runs do not collide; ``remove()`` deletes them however the test ends.
final class TestNetwork: Sendable {
    let router: String, mesh: String, lan: String, internet: String
    private static let counter = Locked(0)

    init() {
        let n = Self.counter.withLock { c -> Int in
            c += 1
            return c
        }
        let tag = "tbrd\(getpid())n\(n)"
        (router, mesh, lan, internet) = ("\(tag)r", "\(tag)m", "\(tag)l", "\(tag)i")
    }

    var all: [String] { [router, mesh, lan, internet] }

    static func ip(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(try Executables.find("ip", package: "iproute2"), arguments, timeout: .seconds(20))
    }

    /// Runs `ip arguments…` and fails on a non-zero status.
    static func must(_ arguments: [String]) async throws {
        let r = try await ip(arguments)
        guard r.status == 0 else { throw TestKitError("ip \(arguments.joined(separator: " ")): \(r.stderr)") }
    }

    /// Runs `command` inside namespace `ns`.
    func exec(_ ns: String, _ command: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try Executables.find("ip", package: "iproute2"), ["netns", "exec", ns] + command, stdin: stdin, timeout: .seconds(20))
    }

    /// Runs `body` with a new network, created first and removed afterwards whatever happens.
    static func with(_ body: (TestNetwork) async throws -> Void) async throws {
        let net = TestNetwork()
        do {
            try await net.create()
            try await body(net)
        } catch {
            await net.remove()
            throw error
        }
        await net.remove()
    }

    /// Creates the namespaces, links, addresses and routes, and turns forwarding on in the router.
    func create() async throws {
        _ = try Executables.find("nft", package: "nftables")
        _ = try Executables.find("ping", package: "iputils-ping")
        let sysctl = try Executables.find("sysctl", package: "procps")
        for ns in all {
            try await Self.must(["netns", "add", ns])
            try await Self.must(["-n", ns, "link", "set", "lo", "up"])
        }
        for (mine, theirs, ns) in [("wpan0", "m0", mesh), ("lan0", "l0", lan), ("wan0", "i0", internet)] {
            try await Self.must(["link", "add", mine, "netns", router, "type", "veth", "peer", "name", theirs, "netns", ns])
        }
        let forwarding = try await exec(router, [sysctl, "-qw", "net.ipv6.conf.all.forwarding=1", "net.ipv4.ip_forward=1"])
        guard forwarding.status == 0 else { throw TestKitError("sysctl: \(forwarding.stderr)") }
        let addresses: [(String, String, [String])] = [
            (router, "wpan0", ["fd11:22::1/64", "198.51.100.1/24"]),
            (router, "lan0", ["fd00:1::1/64", "2001:db8:1::1/64", "192.0.2.1/24"]),
            (router, "wan0", ["2001:db8:ffff::1/64", "203.0.113.1/24"]),
            (mesh, "m0", ["fd11:22::2/64", "198.51.100.2/24"]),
            (lan, "l0", ["fd00:1::2/64", "2001:db8:1::2/64", "192.0.2.2/24"]),
            (internet, "i0", ["2001:db8:ffff::2/64", "203.0.113.2/24"]),
        ]
        for (ns, dev, list) in addresses {
            for a in list { try await Self.must(["-n", ns, "addr", "add", a, "dev", dev] + (a.contains(":") ? ["nodad"] : [])) }
            try await Self.must(["-n", ns, "link", "set", dev, "up"])
        }
        for (ns, v6, v4) in [(mesh, "fd11:22::1", "198.51.100.1"), (lan, "fd00:1::1", "192.0.2.1"), (internet, "2001:db8:ffff::1", "203.0.113.1")] {
            try await Self.must(["-n", ns, "route", "add", "default", "via", v6])
            try await Self.must(["-n", ns, "route", "add", "default", "via", v4])
        }
    }

    /// Deletes every namespace (their veth pairs go with them). Idempotent.
    func remove() async {
        for ns in all { _ = try? await Self.ip(["netns", "del", ns]) }
    }

    /// One ping from the mesh host: `ping -c 1 -W 1`.
    func meshReaches(_ address: String) async throws -> Bool {
        try await exec(mesh, [try Executables.find("ping", package: "iputils-ping"), "-c", "1", "-W", "1", "-q", address]).status == 0
    }

    /// `nft` inside the router namespace (never the host's own firewall).
    func nft(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await exec(router, [try Executables.find("nft", package: "nftables")] + arguments, stdin: stdin)
    }
}

/// The host firewall end to end: tbrd runs in the router namespace with real `nft`, and traffic from
/// the mesh host is forwarded or dropped as the structure's option says.
@Suite(.serialized) struct FirewallNamespaceTests {
    @Test func theFirewallLetsTheMeshReachWhatTheOptionAllows() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (network namespaces); make test runs as root") }
        try await TestNetwork.with(run)
    }

    /// Reachable within three one-second pings (a first neighbour discovery can cost one).
    func reaches(_ net: TestNetwork, _ address: String) async throws -> Bool {
        for _ in 0..<3 where try await net.meshReaches(address) { return true }
        return false
    }

    func run(_ net: TestNetwork) async throws {
        // Another owner's table, made before tbrd starts: it must come out byte-identical.
        let other = """
            table inet keepme {
            \tchain c {
            \t\ttype filter hook forward priority 10; policy accept;
            \t\tip6 daddr 2001:db8:dead::/48 counter drop
            \t}
            }
            """
        #expect(try await net.nft(["-f", "-"], stdin: other).status == 0)
        let before = try await net.nft(["list", "table", "inet", "keepme"]).stdout

        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--dhcp6-pd", "--nat64-delay", "100", "--infra-interface", "lan0"])
            try await env.startDaemon(try env.configuration("", firewall: true), namespace: net.router)
            let structure = try await PolicyEnforcementTests.home(env, ["wpan0"])
            // Not managed: everything is forwarded.
            #expect(try await reaches(net, "2001:db8:ffff::2"), "the network works without tbrd's rules")
            #expect(try await reaches(net, "fd00:1::2"))

            try await PolicyEnforcementTests.set("none", on: structure)
            let table = try await net.nft(["list", "table", "inet", "tbrd"])
            #expect(table.stdout.contains("iifname \"wpan0\"") && table.stdout.contains("ip6 daddr 2001:db8:1::/64 return"), "\(table.stdout)")
            for lanAddress in ["fd00:1::2", "2001:db8:1::2", "192.0.2.2"] {
                #expect(try await reaches(net, lanAddress), "none: the LAN host at \(lanAddress)")
            }
            #expect(try await net.meshReaches("2001:db8:ffff::2") == false, "none: no IPv6 internet")
            #expect(try await net.meshReaches("203.0.113.2") == false, "none: no IPv4 internet")

            // A new prefix on the LAN is let through once the kernel has it (kept current).
            try await TestNetwork.must(["-n", net.router, "addr", "add", "2001:db8:2::1/64", "dev", "lan0", "nodad"])
            try await TestNetwork.must(["-n", net.lan, "addr", "add", "2001:db8:2::2/64", "dev", "l0", "nodad"])
            try await eventually("the new LAN prefix is let through", timeout: .seconds(10)) { try await net.meshReaches("2001:db8:2::2") }

            try await PolicyEnforcementTests.set("nat64Only", on: structure)
            #expect(try await net.meshReaches("2001:db8:ffff::2") == false, "nat64Only: no global IPv6 outside the LAN")
            #expect(try await reaches(net, "203.0.113.2"), "nat64Only: IPv4 (what NAT64 sends) passes")
            #expect(try await reaches(net, "2001:db8:1::2"), "nat64Only: the LAN's global prefix passes")

            try await PolicyEnforcementTests.set("all", on: structure)
            #expect(try await reaches(net, "2001:db8:ffff::2"), "all: IPv6 internet")
            #expect(try await reaches(net, "203.0.113.2"), "all: IPv4 internet")

            // A router removed from its structure loses tbrd's rules.
            try await PolicyEnforcementTests.set("none", on: structure)
            #expect(try await net.meshReaches("2001:db8:ffff::2") == false)
            _ = try await env.manager.call("RemoveBorderRouter", [.string("Home"), .string("wpan0")])
            // RemoveBorderRouter returns once the statuses are recorded; the firewall is rewritten right after.
            try await eventually("no table once no router needs it", timeout: .seconds(10)) {
                try await net.nft(["list", "table", "inet", "tbrd"]).status != 0
            }
            #expect(try await reaches(net, "2001:db8:ffff::2"))

            _ = try await env.manager.call("AddBorderRouter", [.string("Home"), .string("wpan0")])
            try await eventually("wpan0 applied again", wakingOn: structure.wakeups) { try await PolicyEnforcementTests.status(structure)["wpan0"]?.state == .applied }
            #expect(try await net.nft(["list", "table", "inet", "tbrd"]).status == 0, "a router added to a none structure gets its rules")
            try await PolicyEnforcementTests.set("unspecified", on: structure)
            #expect(try await net.nft(["list", "table", "inet", "tbrd"]).status != 0, "no table inet tbrd left under unspecified")
            #expect(try await net.nft(["list", "table", "inet", "keepme"]).stdout == before, "another owner's table is untouched")
            await env.stopDaemon()
        }
    }

    /// `nft flush ruleset` (what `systemctl reload nftables` runs) removes tbrd's table: the kernel's
    /// nftables notification brings it back at once. The drift poll is an hour here, so only the
    /// notification can.
    @Test func aFlushedRulesetIsPutBackAtOnceNotAtTheNextPoll() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (network namespaces); make test runs as root") }
        try await TestNetwork.with { net in
            try await withDaemon { env throws in
                try await env.startSimulator(["wpan0"], extra: ["--nat64-delay", "100", "--infra-interface", "lan0"])
                try await env.startDaemon(try env.configuration("policy-check-interval = 3600\n", firewall: true), namespace: net.router)
                let structure = try await PolicyEnforcementTests.home(env, ["wpan0"])
                try await PolicyEnforcementTests.set("none", on: structure)
                let before = try await net.nft(["list", "table", "inet", "tbrd"])
                #expect(before.status == 0)
                #expect(try await net.nft(["flush", "ruleset"]).status == 0)
                try await eventually("table inet tbrd is back", timeout: .seconds(10)) {
                    try await net.nft(["list", "table", "inet", "tbrd"]).stdout == before.stdout
                }
                #expect(try await net.meshReaches("2001:db8:ffff::2") == false, "none holds again: no IPv6 internet")
                #expect(env.daemon?.stderr.contains("table inet tbrd was changed by someone else; replacing it") == true)
                await env.stopDaemon()
            }
        }
    }
}
