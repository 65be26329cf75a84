import Foundation
import HTTP
import OpenThreadREST
import TBRTestKit
import Testing

/// The client's network diagnostics against the built `otbr-sim --rest`, with a mesh of two-hop routers
/// and children made through the simulator's control interface (with `dbus-send`, as any outside client).
@Suite struct NetworkDiagnosticsTests {
    static let dataset =
        "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"

    /// A running `otbr-sim` that leads `dataset` and serves REST, and how to reach it.
    struct Simulator {
        let bus: PrivateBus
        let process: TestProcess
        let agent: RESTAgent

        /// `AddNode` through `dbus-send`: the new node's RLOC16.
        @discardableResult
        func addNode(_ kind: String, _ ext: UInt64, parent: UInt64 = 0, linkQuality: UInt8 = 3, rxOn: Bool = true, ftd: Bool = true, timeout: UInt32 = 240)
            async throws -> UInt16
        {
            let result = try await ProcessRunner.run(
                try Executables.find("dbus-send", package: "dbus-bin"),
                [
                    "--bus=\(bus.address)", "--print-reply", "--dest=io.openthread.BorderRouter.wpan0", "/io/tbrd/Simulator/wpan0",
                    "io.tbrd.Simulator1.AddNode", "string:\(kind)", "uint64:\(ext)", "uint64:\(parent)", "byte:\(linkQuality)",
                    "boolean:\(rxOn)", "boolean:\(ftd)", "uint32:\(timeout)",
                ])
            guard result.status == 0, let word = result.stdout.split(whereSeparator: \.isWhitespace).last, let rloc = UInt16(word) else {
                throw TestKitError("AddNode failed: \(result.stderr)")
            }
            return rloc
        }
    }

    /// Runs `body` with `otbr-sim` on a private bus, leader of `dataset`, REST on a free port.
    static func withSimulator(_ body: (Simulator) async throws -> Void) async throws {
        try await withPrivateBus { bus throws in
            let process = try TestProcess(
                try Executables.product("otbr-sim"),
                ["--bus", bus.address, "--dataset", dataset, "--rest", "127.0.0.1:0", "--diag-delay", "20"], directory: bus.directory)
            var url: String?
            try await eventually("otbr-sim serves REST", timeout: .seconds(20), wakingOn: process.wakeups) {
                guard process.isRunning else { throw TestKitError("otbr-sim exited: \(process.stderr)") }
                url = process.stdout.split(separator: "\n").first { $0.hasPrefix("rest ") }.flatMap { $0.split(separator: " ").last }.map(String.init)
                return url != nil
            }
            let agent = RESTAgent(base: try HTTPURL(try #require(url)), http: HTTPClient(timeout: .seconds(10)))
            do {
                try await body(Simulator(bus: bus, process: process, agent: agent))
            } catch {
                _ = await process.terminate()
                throw error
            }
            #expect(await process.terminate() == 0)
        }
    }

    @Test func theClientReadsEveryRouterAndChildTwoHopNodesIncluded() async throws {
        try await Self.withSimulator { sim throws in
            let routerA = try await sim.addNode("router", 0xA0, linkQuality: 3)
            let routerB = try await sim.addNode("router", 0xB0, parent: 0xA0, linkQuality: 2)
            let sleepy = try await sim.addNode("child", 0xC1, linkQuality: 2, rxOn: false, ftd: false, timeout: 240)
            let twoHop = try await sim.addNode("child", 0xD1, parent: 0xB0, linkQuality: 1, rxOn: true, ftd: false, timeout: 100)
            let node = try await sim.agent.node()
            let own = try #require(node.extendedAddress.flatMap { UInt64($0, radix: 16) })

            let mesh = try await sim.agent.networkDiagnostics(timeout: .seconds(20))
            #expect(Set(mesh.nodes.map(\.extAddress)) == [own, 0xA0, 0xB0, 0xC1, 0xD1] && mesh.unanswered.isEmpty)
            let br = try #require(mesh.node(extAddress: own))
            let ownID = try #require(br.routerID)
            #expect(br.role == .router && mesh.leaderData?.leaderRouterID == ownID)
            #expect(br.neighbourLinks.map(\.routerID) == [UInt8(routerA >> 10)])

            let a = try #require(mesh.node(extAddress: 0xA0))
            #expect(a.rloc16 == routerA && a.role == .router && a.mode?.rxOnWhenIdle == true)
            let linksA = Dictionary(uniqueKeysWithValues: a.neighbourLinks.map { ($0.routerID, $0) })
            #expect(linksA[ownID]?.linkQualityIn == 3 && linksA[ownID]?.linkQualityOut == 3)
            #expect(linksA[UInt8(routerB >> 10)]?.linkQualityIn == 2 && linksA.count == 2)

            let b = try #require(mesh.node(extAddress: 0xB0))
            #expect(b.rloc16 == routerB && b.neighbourLinks.map(\.routerID) == [UInt8(routerA >> 10)], "B hears only A")
            #expect(b.routes.first { $0.routerID == ownID }?.routeCost == 3, "the border router is two links away")

            let c = try #require(mesh.node(extAddress: 0xC1))
            #expect(c.rloc16 == sleepy && c.role == .child && c.parentRloc16 == br.rloc16 && mesh.parent(of: c) == br)
            #expect(c.mode == NetworkDiagnostics.Mode(rxOnWhenIdle: false, fullThreadDevice: false, fullNetworkData: true))
            #expect(c.childTimeout == 240)
            let d = try #require(mesh.node(extAddress: 0xD1))
            #expect(d.rloc16 == twoHop && mesh.parent(of: d)?.extAddress == 0xB0 && d.childTimeout == 100)
            #expect(d.mode?.rxOnWhenIdle == true && d.mode?.fullThreadDevice == false, "the mode from the parent, not the swapped device list")
            #expect(d.leaderData == mesh.leaderData)
        }
    }

    @Test func aDetachedAgentRunsOutOfTimeAndAnOlderOneIsRefused() async throws {
        try await Self.withSimulator { sim throws in
            try await sim.agent.setThreadEnabled(false)
            do throws(RESTAgentError) {
                _ = try await sim.agent.networkDiagnostics(timeout: .seconds(1))
                Issue.record("a detached agent gave diagnostics")
            } catch {
                #expect(error.kind == .timedOut && error.message.contains(sim.agent.base.description), "\(error)")
            }
        }
        try await RESTAgentTests.withAgent("old") { agent in
            do throws(RESTAgentError) {
                _ = try await agent.networkDiagnostics(timeout: .seconds(5))
                Issue.record("an agent without /api/actions gave diagnostics")
            } catch {
                #expect(error.kind == .refused && error.status == 404, "\(error)")
            }
        }
    }
}
