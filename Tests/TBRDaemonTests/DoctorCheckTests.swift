@testable import TBRCoreServices
import BorderAgentDiscovery
import BorderRouterService
import DeviceModel
import HostNetwork
import MeshCoP
import OpenThreadBR
@testable import TBRDaemon
import TBRFoundation
import Testing
import RouterFleet

/// The doctor's checks on facts (no I/O): each passes and fails on what it reads. The namespace tests
/// (DoctorNamespaceTests) run the same checks end to end against real kernels and agents.
@Suite struct DoctorCheckTests {
    static let omr = IPv6Prefix("fd12:3456:789a:1::/64")!

    static func topology(omr: Bool = true) -> MeshTopology {
        let prefix = OnMeshPrefix(
            prefix: Self.omr, rloc16: 0x1400, preference: .low, preferred: true, slaac: omr, onMesh: true, stable: true)
        return MeshTopology(partitionID: 1, leaderRouterID: 5, onMeshPrefixes: [prefix], externalRoutes: [], nodes: [])
    }

    static func router(
        transport: RouterTransport = .dbus, key: [UInt8] = Array(1...16), health: RouterHealth = healthy, policy: PolicyFacts? = nil
    ) throws -> RouterFacts {
        var dataset = OperationalDataset()
        dataset.networkKey = NetworkKey(bytes: key)
        return RouterFacts(
            id: "wpan0", transport: transport, address: "io.openthread.BorderRouter.wpan0", online: true, role: .leader,
            topology: .value(topology()), dataset: .value(dataset), health: health, advertisedOMR: nil, policy: policy)
    }

    static let healthy = RouterHealth(
        rcpVersion: .value("OPENTHREAD/rcp"), multiAilDetected: .value(false), ccaFailureRate: .value(0x0100),
        nat64: .value(.disabled), infraInterface: .value("eth0"))

    /// A border agent on network `name` with extended PAN ID `xp`, as mDNS would show it.
    static func agent(_ name: String, xp: UInt8) -> BorderAgent {
        let txt = MeshCoPTXTRecord(entries: [(key: "nn", value: Array(name.utf8)), (key: "xp", value: Array(repeating: xp, count: 8))])
        return BorderAgent(instanceName: "BR \(name)", hostName: "br.local", addresses: [], port: 49154, txt: txt)
    }

    static func host(routes: [IPv6Route], settings: InterfaceIPv6Settings? = nil, agents: [BorderAgent]? = [agent("Home", xp: 1)])
        -> HostFacts
    {
        HostFacts(
            routes: .value(routes), interfaces: settings.map { [("eth0", .value($0))] } ?? [], firewallEnabled: false,
            firewallNeededBy: [], firewallTable: .unsupported("off"), avahiRunning: agents != nil, borderAgents: agents)
    }

    static func route(_ text: String, dev: String = "wpan0") -> IPv6Route {
        IPv6Route(destination: IPv6Prefix(text)!, source: IPv6Prefix("::/0")!, gateway: nil, metric: 256, flags: [.up], interface: dev)
    }

    static func status(_ checks: [DiagnosticCheck], _ id: String) -> DiagnosticCheck.Status? { checks.first { $0.id == id }?.status }

    @Test func aHealthyLocalRouterPassesEveryCheck() throws {
        let checks = Doctor.checks(try Self.router(), host: Self.host(routes: [Self.route("fd12:3456:789a:1::/64")]))
        let notPassing = checks.filter { $0.status != .pass }
        #expect(notPassing.isEmpty, "\(notPassing)")
        #expect(checks.first { $0.id == "omr-route" }?.message.contains("fd12:3456:789a:1::/64") == true)
    }

    @Test func theDefaultRouteDoesNotReachTheMesh() throws {
        let checks = Doctor.checks(try Self.router(), host: Self.host(routes: [Self.route("::/0", dev: "eth0")]))
        #expect(Self.status(checks, "omr-route") == .fail)
    }

    @Test func wellKnownKeysFail() throws {
        let example: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        for key in [example, Array(repeating: 0, count: 16)] {
            let checks = Doctor.checks(try Self.router(key: key), host: Self.host(routes: []))
            #expect(Self.status(checks, "network-key") == .fail)
        }
    }

    @Test func radioHealthIsRead() throws {
        var health = Self.healthy
        health.rcpVersion = .value("")
        health.multiAilDetected = .value(true)
        health.ccaFailureRate = .value(0x8000)
        let checks = Doctor.checks(try Self.router(health: health), host: Self.host(routes: []))
        #expect(Self.status(checks, "rcp-version") == .fail)
        #expect(Self.status(checks, "multi-ail") == .fail)
        #expect(Self.status(checks, "cca-failure-rate") == .warn)
        #expect(checks.first { $0.id == "cca-failure-rate" }?.message.contains("50.0 %") == true)
    }

    @Test func restRoutersMarkWhatTheyCannotSayUnsupported() throws {
        let why = "otbr-agent's REST API does not report it"
        let health = RouterHealth(
            rcpVersion: .unsupported(why), multiAilDetected: .unsupported(why), ccaFailureRate: .unsupported(why),
            nat64: .unsupported(why), infraInterface: .unsupported(why))
        var r = try Self.router(transport: .rest, health: health)
        r.topology = .value(MeshTopology(partitionID: nil, leaderRouterID: nil, onMeshPrefixes: [], externalRoutes: [], nodes: []))
        r.role = .leader
        let settings = InterfaceIPv6Settings(
            acceptRA: 1, forwarding: 0, acceptRARouteInfoMaxPrefixLength: 0, acceptRARouteInfoMinPrefixLength: 48,
            acceptRARouterPreference: 1)
        let checks = Doctor.checks(r, host: Self.host(routes: [], settings: settings))
        for id in ["rcp-version", "multi-ail", "cca-failure-rate", "nat64"] { #expect(Self.status(checks, id) == .unsupported) }
        #expect(Self.status(checks, "ra-route-info") == .fail)
        #expect(checks.first { $0.id == "ra-route-info" }?.message.contains("accept_ra_rt_info_max_plen=0") == true)
    }

    @Test func nat64IsCheckedAgainstThePolicy() throws {
        let policy = PolicyFacts(
            structure: "home", option: .internetAccessOptionNat64Only,
            status: RouterPolicyStatus(deviceID: DeviceID(rawValue: "wpan0")!, state: .failed, detail: "NAT64 refused"))
        let checks = Doctor.checks(try Self.router(policy: policy), host: Self.host(routes: []))
        #expect(Self.status(checks, "nat64") == .fail)
        #expect(Self.status(checks, "internet-access-policy") == .fail)
    }

    @Test func twoThreadNetworksInOneHomeAreReported() throws {
        let two = Self.host(routes: [], agents: [Self.agent("Home", xp: 1), Self.agent("Home", xp: 1), Self.agent("Other", xp: 2)])
        let check = try #require(Doctor.checks(try Self.router(), host: two).first { $0.id == "thread-networks" })
        #expect(check.status == .warn)
        #expect(check.message.contains("2 Thread networks") && check.message.contains("Other"))
    }

    @Test func theFirewallTableIsRequiredOnlyWhereAPolicyNeedsIt() throws {
        var host = Self.host(routes: [])
        host.firewallEnabled = true
        host.firewallTable = .value(false)
        #expect(host.firewall.status == .pass, "no restricting policy: no table needed")
        host.firewallNeededBy = ["Home"]
        #expect(host.firewall.status == .fail && host.firewall.message.contains("Home"))
        host.firewallTable = .value(true)
        #expect(host.firewall.status == .pass)
    }

    @Test func anUnreachableAgentStopsTheRouterChecks() throws {
        var r = try Self.router()
        r.online = false
        let checks = Doctor.checks(r, host: Self.host(routes: [], agents: nil))
        #expect(checks.map(\.id) == ["agent-reachable", "thread-networks", "firewall", "avahi"])
        #expect(Self.status(checks, "agent-reachable") == .fail && Self.status(checks, "avahi") == .fail)
        #expect(Self.status(checks, "thread-networks") == .unsupported)
    }
}
