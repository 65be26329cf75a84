import DBus
import Foundation
import TBRDBusAPI
import TBRFoundation
import TBRTestKit
import Testing

/// The whole mesh of a border router on this host (issue 49): over D-Bus the agent lists only its own
/// neighbours and children, so a child of another router is missing; with the same agent's REST API
/// (`agent-rest`) tbrd reads its network diagnostics and `tbrctl mesh` lists every router with its
/// children, and without it says where its view ends.
@Suite struct LocalMeshTests {
    static let router: UInt64 = 0xA1A1_0000_0000_0001
    static let childOfMine: UInt64 = 0xC1C1_0000_0000_0002
    static let childOfRouter: UInt64 = 0xC2C2_0000_0000_0003

    /// otbr-sim's wpan0 with its REST API on a free port, a neighbouring router, and a child each.
    static func mesh(_ env: DaemonEnvironment) async throws -> String {
        try await env.startSimulator(["wpan0"], extra: ["--rest", "0", "--diag-delay", "20"])
        let sim = try #require(env.simulator)
        try await eventually("otbr-sim serves REST", wakingOn: sim.wakeups) { sim.stdout.contains("rest wpan0 ") }
        let url = try #require(sim.stdout.split(separator: "\n").first { $0.hasPrefix("rest wpan0 ") }?.split(separator: " ").last)
        let control = env.simulatorControl("wpan0")
        func add(_ kind: String, _ address: UInt64, parent: UInt64) async throws {
            _ = try await control.call(
                "AddNode", [.string(kind), .uint64(address), .uint64(parent), .byte(3), .bool(false), .bool(kind == "router"), .uint32(240)])
        }
        try await add("router", Self.router, parent: 0)
        try await add("child", Self.childOfMine, parent: 0)
        try await add("child", Self.childOfRouter, parent: Self.router)
        return String(url)
    }

    static func meshText(_ env: DaemonEnvironment) async throws -> (text: String, json: [String: Any]) {
        try await eventually("wpan0 leads") { try await RouterRecoveryTests.role(env, "wpan0") == "leader" }
        let text = try await HTTPAPITests.tbrctl(env, ["mesh", "-d", "wpan0"])
        #expect(text.status == 0, "\(text.stderr)")
        let json = try await HTTPAPITests.tbrctl(env, ["--json", "mesh", "-d", "wpan0"])
        return (text.stdout, try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]))
    }

    @Test func withTheAgentsRESTAPIEveryRouterIsListedWithItsChildren() async throws {
        try await withDaemon { env throws in
            let url = try await Self.mesh(env)
            try await env.startDaemon(try env.configuration("agent-rest = wpan0=\(url)\n"))
            let (text, json) = try await Self.meshText(env)
            let nodes = try #require(json["nodes"] as? [[String: Any]])
            let far = try #require(nodes.first { $0["extAddress"] as? String == "c2c2000000000003" }, "\(nodes)")
            #expect(far["parent"] as? String == "a1a1000000000001" && far["source"] as? String == "diagnostics", "\(far)")
            let near = try #require(nodes.first { $0["extAddress"] as? String == "c1c1000000000002" })
            #expect(near["source"] as? String == "neighborTable", "the agent's own child keeps what its neighbour table measured")
            #expect(json["horizon"] is NSNull, "the whole mesh")
            let networkData = try #require(json["networkData"] as? [String: Any])
            let prefixes = try #require(networkData["onMeshPrefixes"] as? [Any])
            #expect(!prefixes.isEmpty, "the network data is still D-Bus's")
            // The tree: the far child under the router it hangs off.
            let lines = text.split(separator: "\n").map(String.init)
            let routerLine = try #require(lines.firstIndex { $0.contains("a1a1000000000001") }, "\(text)")
            #expect(lines.dropFirst(routerLine + 1).first?.contains("c2c2000000000003") == true, "\(text)")
            #expect(!text.contains("The view ends"), "\(text)")
        }
    }

    @Test func withoutItTheMeshSaysWhereItsViewEnds() async throws {
        try await withDaemon { env throws in
            _ = try await Self.mesh(env)
            try await env.startDaemon(try env.configuration("agent-rest = off\n"))
            let (text, json) = try await Self.meshText(env)
            let nodes = try #require(json["nodes"] as? [[String: Any]])
            #expect(!nodes.contains { $0["extAddress"] as? String == "c2c2000000000003" }, "over D-Bus a child of another router is missing")
            let horizon = try #require(json["horizon"] as? String)
            #expect(horizon.contains("own neighbours and children") && horizon.contains("agent-rest"), "\(horizon)")
            #expect(text.contains("The view ends at the agent's own neighbours and children"), "\(text)")
        }
    }
}
