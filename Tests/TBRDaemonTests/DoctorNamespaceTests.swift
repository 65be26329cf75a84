import DBus
import Foundation
import OpenThreadBR
import TBRDBusAPI
import TBRFoundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Manager1.Diagnose` with tbrd in a network namespace of the test's own (``TestNetwork``): the doctor
/// reads the kernel's routing table and the RA settings there, and both checks pass and fail as the
/// namespace is changed.
@Suite(.serialized) struct DoctorNamespaceTests {
    static func diagnose(_ env: DaemonEnvironment, _ router: String) async throws -> [String: DiagnosticRow] {
        let reply = try await env.manager.call("Diagnose", [.string(router)])
        let rows = try [DiagnosticRow](dbusValue: try #require(reply.first))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func theOMRRouteAndRouteInformationChecksReadTheNamespace() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (network namespaces); make test runs as root") }
        try await TestNetwork.with(run)
    }

    func run(_ net: TestNetwork) async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], extra: ["--infra-interface", "lan0"])
            try await env.startDaemon(try env.configuration("", firewall: true), namespace: net.router)
            let agent = BorderRouterAgent(connection: env.client, interfaceName: "wpan0")
            let omr = try #require(try await agent.read(.onMeshPrefixes).first { $0.isOMR }?.prefix, "otbr-sim publishes an OMR prefix")

            // No route to the OMR prefix in tbrd's namespace: the mesh's devices are out of reach.
            let without = try await Self.diagnose(env, "wpan0")
            #expect(without["omr-route"]?.status == "fail", "\(String(describing: without["omr-route"]))")
            #expect(without["omr-route"]?.message.contains(omr.description) == true)
            #expect(without["network-key"]?.status == "fail", "the demo dataset's key is the specification's example")
            #expect(without["ra-route-info"]?.status == "pass", "a router on this host needs no RA")

            try await TestNetwork.must(["-n", net.router, "-6", "route", "add", omr.description, "dev", "wpan0"])
            let with = try await Self.diagnose(env, "wpan0")
            #expect(with["omr-route"]?.status == "pass", "\(String(describing: with["omr-route"]))")
            #expect(with["omr-route"]?.message.contains("on wpan0") == true)

            // The firewall table is there once a structure's policy needs it, and reported missing when gone.
            let structure = try await PolicyEnforcementTests.home(env, ["wpan0"])
            try await PolicyEnforcementTests.set("none", on: structure)
            #expect(try await Self.diagnose(env, "wpan0")["firewall"]?.status == "pass")

            try await checkRouteInformation(net, env)
        }
    }

    /// `omr-route` follows the namespace's routing table by netlink: the route added closes the problem and
    /// deleted opens it again, with the backstop an hour away.
    @Test func theHealthMonitorFollowsTheOMRRouteByNetlink() async throws {
        guard getuid() == 0 else { throw TestKitError("this test needs root (network namespaces); make test runs as root") }
        try await TestNetwork.with { net in
            try await withDaemon { env throws in
                try await env.startSimulator(["wpan0"], extra: ["--infra-interface", "lan0"])
                try await env.startDaemon(try env.configuration("health-interval = 3600\n"), namespace: net.router)
                let seen = try await HealthTests.problemSignals(env)
                let agent = BorderRouterAgent(connection: env.client, interfaceName: "wpan0")
                let omr = try #require(try await agent.read(.onMeshPrefixes).first { $0.isOMR }?.prefix, "otbr-sim publishes an OMR prefix")
                try await eventually("omr-route is open: no route in tbrd's namespace", timeout: .seconds(30)) {
                    try await HealthTests.problems(env).rows.contains { $0["check"] as? String == "omr-route" && $0["subject"] as? String == "wpan0" }
                }
                try await TestNetwork.must(["-n", net.router, "-6", "route", "add", omr.description, "dev", "wpan0"])
                try await eventually("the route added closes it", timeout: .seconds(30)) { HealthTests.saw(seen, "ProblemClosed", "wpan0", "omr-route") }
                try await TestNetwork.must(["-n", net.router, "-6", "route", "del", omr.description, "dev", "wpan0"])
                try await eventually("the route deleted opens it again", timeout: .seconds(30)) {
                    HealthTests.saw(seen, "ProblemOpened", "wpan0", "omr-route")
                }
            }
        }
    }

    /// A router on another host (otbr-sim's REST API in the same namespace, on a bus tbrd does not see):
    /// the LAN interface of the default route must take /64 Route Information Options.
    func checkRouteInformation(_ net: TestNetwork, _ env: DaemonEnvironment) async throws {
        let otherBus = try await PrivateBus.start()
        defer { otherBus.stop() }
        let sim = try TestProcess(
            try Executables.find("ip", package: "iproute2"),
            ["netns", "exec", net.router, try Executables.product("otbr-sim"), "--bus", otherBus.address, "--interface", "wpan7",
             "--dataset", demoDataset, "--role-delay", "50", "--rest", "127.0.0.1:8081"],
            directory: env.directory)
        do { try await checkRemote(net, env, sim) } catch {
            _ = await sim.terminate()
            throw error
        }
        _ = await sim.terminate()
    }

    private func checkRemote(_ net: TestNetwork, _ env: DaemonEnvironment, _ sim: TestProcess) async throws {
        try await eventually("otbr-sim serves REST", wakingOn: sim.wakeups) { sim.stdout.contains("ready") || !sim.isRunning }
        _ = try await env.manager.call("AddRemoteBorderRouter", [.string("http://127.0.0.1:8081"), .string("remote")])
        try await TestNetwork.must(["-n", net.router, "-6", "route", "add", "default", "via", "fd00:1::2", "dev", "lan0"])
        let sysctl = try Executables.find("sysctl", package: "procps")
        func set(_ values: [String]) async throws {
            let r = try await net.exec(net.router, [sysctl, "-qw"] + values.map { "net.ipv6.conf.lan0.\($0)" })
            guard r.status == 0 else { throw TestKitError("sysctl: \(r.stderr)") }
        }
        try await set(["accept_ra=1", "accept_ra_rt_info_max_plen=0"])
        let before = try await Self.diagnose(env, "remote")
        let ra = try #require(before["ra-route-info"])
        #expect(ra.status == "fail" && ra.message.contains("lan0") && ra.message.contains("accept_ra_rt_info_max_plen=0"), "\(ra)")
        #expect(ra.fix.contains("accept_ra_rt_info_max_plen=64"))
        for id in ["rcp-version", "multi-ail", "cca-failure-rate", "nat64"] {
            #expect(before[id]?.status == "unsupported", "\(id) over REST: \(String(describing: before[id]))")
        }
        // Forwarding is on in this namespace: accept_ra must be 2 as well as the prefix length 64.
        try await set(["accept_ra_rt_info_max_plen=64"])
        #expect(try await Self.diagnose(env, "remote")["ra-route-info"]?.status == "fail")
        try await set(["accept_ra=2"])
        let after = try await Self.diagnose(env, "remote")
        #expect(after["ra-route-info"]?.status == "pass", "\(String(describing: after["ra-route-info"]))")
    }
}
