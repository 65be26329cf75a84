import DBus
import Foundation
import TBRDBusAPI
import TBRFoundation
import TBRTestKit
import Testing

/// `GetMeshTopology` of a border router reached over REST: otbr-agent's REST API has no neighbour table,
/// so the mesh comes from network diagnostics, which reach two hops and more (otbr-sim on a bus of its
/// own, its REST API on loopback).
@Suite struct RemoteMeshTests {
    static let near: UInt64 = 0x1111_0000_0000_0001
    static let far: UInt64 = 0x2222_0000_0000_0002
    static let farChild: UInt64 = 0xC222_0000_0000_0003

    @Test func aRESTRoutersMeshReachesBeyondTheFirstHop() async throws {
        try await withDaemon { env throws in
            let agentBus = try await PrivateBus.start()
            defer { agentBus.stop() }
            let sim = try TestProcess(
                try Executables.product("otbr-sim"),
                ["--bus", agentBus.address, "--interface", "wpan3", "--dataset", demoDataset, "--role-delay", "50", "--rest", "0",
                 "--diag-delay", "20"],
                directory: env.directory)
            do { try await check(env, agentBus, sim) } catch {
                _ = await sim.terminate()
                throw error
            }
            _ = await sim.terminate()
        }
    }

    private func check(_ env: DaemonEnvironment, _ agentBus: PrivateBus, _ sim: TestProcess) async throws {
        try await eventually("otbr-sim serves REST", wakingOn: sim.wakeups) { sim.stdout.contains("rest wpan3 ") || !sim.isRunning }
        let url = try #require(sim.stdout.split(separator: "\n").first { $0.hasPrefix("rest wpan3 ") }?.split(separator: " ").last)
        try await env.startDaemon()
        _ = try await env.manager.call("AddRemoteBorderRouter", [.string(String(url)), .string("remote")])

        let client = try await Connection(bus: .address(agentBus.address))
        do { try await checkMesh(env, client) } catch {
            await client.close()
            throw error
        }
        await client.close()
    }

    private func checkMesh(_ env: DaemonEnvironment, _ client: Connection) async throws {
        let control = RemoteObject(
            connection: client, destination: "io.openthread.BorderRouter.wpan3", path: "/io/tbrd/Simulator/wpan3",
            interface: "io.tbrd.Simulator1")
        func add(_ kind: String, _ address: UInt64, parent: UInt64) async throws {
            _ = try await control.call(
                "AddNode", [.string(kind), .uint64(address), .uint64(parent), .byte(2), .bool(false), .bool(kind == "router"), .uint32(300)])
        }
        try await add("router", Self.near, parent: 0)
        try await add("router", Self.far, parent: Self.near)
        try await add("child", Self.farChild, parent: Self.far)
        try await eventually("the REST router is attached") {
            let rows = try await env.manager.call("ListBorderRouters")
            return "\(rows)".contains("leader")
        }

        let reply = try MeshTopologyReply(arguments: try await env.router("remote").call("GetMeshTopology"))
        let nodes = Dictionary(reply.nodes.map { ($0.extAddress, $0) }, uniquingKeysWith: { a, _ in a })
        let me = try #require(reply.nodes.first { $0.source == "self" })
        #expect(me.role == "leader" && reply.leaderRouterId >= 0 && reply.partitionId >= 0)
        let near = try #require(nodes["1111000000000001"], "\(reply.nodes.map(\.extAddress))")
        let far = try #require(nodes["2222000000000002"], "two hops away, only diagnostics can tell")
        let child = try #require(nodes["c222000000000003"])
        #expect(near.source == "diagnostics" && far.source == "diagnostics" && child.source == "diagnostics")
        #expect(child.role == "child" && child.parent == "2222000000000002" && child.timeout == 300)
        #expect(child.modeKnown && !child.rxOnWhenIdle)
        #expect(child.linkQualityIn == 2 && child.linkQualityOut == -1, "its parent's link margin of it, one way only")
        #expect(child.age >= 0, "its parent's age of it")
        #expect(far.links.contains { $0.rloc16 == near.rloc16 }, "the far router's Route64 links it to the near one")
        #expect(me.links.contains { $0.rloc16 == near.rloc16 } && !me.links.contains { $0.rloc16 == far.rloc16 })
        #expect(near.linkQualityIn == 2 && near.linkQualityOut == 2, "Route64 gives both directions")

        // The tree tbrctl prints: the far router under the near one, with the link between them as the
        // near router reports it, and its child under it; everything marked as reported by diagnostics.
        let text = try await ProcessRunner.run(try Executables.product("tbrctl"), ["--bus", env.address, "mesh", "-d", "remote"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let nearLine = try #require(lines.firstIndex { $0.contains("1111000000000001") }, "\(text.stdout)")
        let farLine = try #require(lines.firstIndex { $0.contains("2222000000000002") }, "\(text.stdout)")
        let childLine = try #require(lines.firstIndex { $0.contains("c222000000000003") }, "\(text.stdout)")
        #expect(nearLine < farLine && farLine < childLine, "\(text.stdout)")
        #expect(lines[nearLine].hasPrefix("\u{2514}\u{2500}\u{2500} ") || lines[nearLine].hasPrefix("\u{251C}\u{2500}\u{2500} "))
        #expect(lines[farLine].contains("link with \(String(format: "0x%04x", near.rloc16)) quality in 2, out 2"), "\(text.stdout)")
        #expect(lines[childLine].contains("child  sleepy MTD  timeout 300 s  link quality 2  heard "), "\(text.stdout)")
        #expect(lines[1...].filter { $0.contains("000000000") }.allSatisfy { $0.hasSuffix("*") }, "\(text.stdout)")
        #expect(text.stdout.contains("Nodes: 1 leader, 2 routers, 1 child (* reported by network diagnostics)"), "\(text.stdout)")
    }
}
