import DBus
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// The simulated mesh (`AddNode`, `RemoveNode`) as the agent's own tables show it over D-Bus.
@Suite struct MeshTests {
    @Test func routersAndChildrenGetTheirRLOC16sAndOnlyFirstHopNodesAreNeighbours() async throws {
        try await withAttachedSimulator { env throws in
            let own = try await env.routerID()
            #expect(try await env.dbus.read(.rloc16) == UInt16(own) << 10)
            let firstFree: UInt16 = own == 0 ? 1 : 0
            let routerA = try await env.addNode("router", 0xA0, linkQuality: 2)
            #expect(routerA == firstFree << 10)
            #expect(try await env.addNode("child", 0xC1, timeout: 100) == UInt16(own) << 10 | 1)
            #expect(try await env.addNode("child", 0xC2, linkQuality: 1, rxOnWhenIdle: false, fullThreadDevice: false) == UInt16(own) << 10 | 2)
            // Two hops away: a child of router A and a router that hangs off A.
            #expect(try await env.addNode("child", 0xD1, parent: 0xA0) == routerA | 1)
            let routerB = try await env.addNode("router", 0xB0, parent: 0xA0)
            #expect(routerB >> 10 != UInt16(own) && routerB != routerA && routerB & 0x1FF == 0)

            let neighbours = try await env.neighborTable()
            #expect(neighbours.map(\.ext) == [0xC1, 0xC2, 0xA0], "children first (slot order), then routers; no two-hop node")
            #expect(neighbours.map(\.isChild) == [true, true, false])
            #expect(neighbours.map(\.rloc16) == [UInt16(own) << 10 | 1, UInt16(own) << 10 | 2, routerA])
            #expect(neighbours.map(\.linkQualityIn) == [3, 1, 2])
            #expect(neighbours.allSatisfy { $0.version == 5 && $0.fullNetworkData && $0.averageRSSI < -60 && $0.averageRSSI > -100 })
            #expect(neighbours[1].rxOnWhenIdle == false && neighbours[1].fullThreadDevice == false)
            #expect(neighbours[2].rxOnWhenIdle && neighbours[2].fullThreadDevice)
            #expect(neighbours[0].averageRSSI > neighbours[1].averageRSSI, "a better link has a stronger signal")

            let children = try await env.childTable()
            #expect(children.map(\.ext) == [0xC1, 0xC2] && children.map(\.childID) == [1, 2])
            #expect(children.map(\.timeout) == [100, 240])
            // The real handler never sets the RLOC16: the simulator answers a fixed wrong value.
            #expect(children.allSatisfy { $0.rloc16 == 0xDEAD })
            let leader = try await env.agentObject.property("LeaderData")
            guard case .structure(let l) = leader, case .byte(let version) = l[2], case .byte(let leaderID) = l[4] else {
                Issue.record("LeaderData \(leader)")
                return
            }
            #expect(leaderID == own && children.allSatisfy { $0.networkDataVersion == version })
            #expect(try await env.agentObject.property("PartitionID") == l[0])
        }
    }

    @Test func theChildTableStopsAtTheFirstEmptySlotAndTheSlotIsReused() async throws {
        try await withAttachedSimulator { env throws in
            for ext: UInt64 in [0xC1, 0xC2, 0xC3] { try await env.addNode("child", ext) }
            #expect(try await env.removeNode(0xC1))
            #expect(try await env.childTable().isEmpty, "slot 0 is empty: the real agent's list stops there")
            #expect(try await env.neighborTable().map(\.ext) == [0xC2, 0xC3])
            #expect(try await env.removeNode(0xC1) == false)
            // The next child takes the empty slot and the lowest free child ID.
            let own = try await env.routerID()
            #expect(try await env.addNode("child", 0xC4) == UInt16(own) << 10 | 1)
            #expect(try await env.childTable().map(\.ext) == [0xC4, 0xC2, 0xC3])
            #expect(try await env.childTable().map(\.childID) == [1, 2, 3])
        }
    }

    @Test func removingARouterTakesItsChildrenAndTheRoutersBehindIt() async throws {
        try await withAttachedSimulator { env throws in
            let routerA = try await env.addNode("router", 0xA0)
            try await env.addNode("child", 0xA1, parent: 0xA0)
            try await env.addNode("router", 0xB0, parent: 0xA0)
            try await env.addNode("child", 0xB1, parent: 0xB0)
            try await env.addNode("child", 0xC1)
            #expect(try await env.removeNode(0xA0))
            #expect(try await env.neighborTable().map(\.ext) == [0xC1])
            for gone: UInt64 in [0xA1, 0xB0, 0xB1] { #expect(try await env.removeNode(gone) == false, "\(gone)") }
            // Router A's ID is free again.
            #expect(try await env.addNode("router", 0xA2) == routerA)
        }
    }

    @Test func theTablesAreEmptyUnlessTheAgentIsAttached() async throws {
        try await withRESTSimulator { env throws in
            try await env.addNode("router", 0xA0)
            try await env.addNode("child", 0xC1)
            #expect(try await env.neighborTable().isEmpty, "disabled")
            #expect(try await env.childTable().isEmpty, "disabled")
            try await env.dbus.setActiveDatasetTLVs(sampleDataset)
            try await env.dbus.attach()
            let own = try await env.routerID()
            let rows = try await env.neighborTable()
            #expect(rows.map(\.ext) == [0xC1, 0xA0])
            #expect(rows[1].rloc16 >> 10 != UInt16(own), "the agent takes a router ID no simulated router has")
            #expect(rows[0].rloc16 == UInt16(own) << 10 | 1, "a child's RLOC16 follows its parent's router ID")
            try await env.dbus.detach()
            #expect(try await env.neighborTable().isEmpty, "disabled again")
            #expect(try await env.childTable().isEmpty, "disabled again")
        }
    }

    @Test func radioHealthIsWhatTheControlInterfaceSet() async throws {
        try await withRESTSimulator { env throws in
            #expect(try await env.agentObject.property("CcaFailureRate", as: UInt16.self) == 0)
            #expect(try await env.agentObject.property("MultiAilDetected", as: Bool.self) == false)
            #expect(try await env.agentObject.property("OtRcpVersion", as: String.self).isEmpty == false)
            try await env.control("SetRadioHealth", [.uint16(0x8000), .bool(true), .string("OPENTHREAD/test-rcp 1.2")])
            #expect(try await env.agentObject.property("CcaFailureRate", as: UInt16.self) == 0x8000)
            #expect(try await env.agentObject.property("MultiAilDetected", as: Bool.self))
            #expect(try await env.agentObject.property("OtRcpVersion", as: String.self) == "OPENTHREAD/test-rcp 1.2")
            try await env.control("SetRadioHealth", [.uint16(0xFFFF), .bool(false), .string("")])
            #expect(try await env.agentObject.property("OtRcpVersion", as: String.self) == "")
            #expect(try await env.agentObject.property("CcaFailureRate", as: UInt16.self) == 0xFFFF)
        }
    }

    @Test func theControlInterfaceRefusesNodesTheMeshCannotHave() async throws {
        try await withAttachedSimulator { env throws in
            try await env.addNode("router", 0xA0)
            try await env.addNode("child", 0xC1)
            let cases: [(String, UInt64, UInt64, UInt8, String)] = [
                ("sleepy", 0xE1, 0, 3, "kind"), ("child", 0, 0, 3, "ext_address 0"), ("child", 0xA0, 0, 3, "already"),
                ("child", 0xE1, 0x99, 3, "parent"), ("child", 0xE1, 0xC1, 3, "is a child"), ("router", 0xE1, 0, 4, "link_quality"),
            ]
            for (kind, ext, parent, lq, words) in cases {
                let error = await env.addNodeError(kind, ext, parent: parent, linkQuality: lq)
                #expect(error?.name == .invalidArgs, "\(kind) \(ext) \(parent) \(lq)")
                #expect(error?.message.contains(words) == true, "\(error?.message ?? "no error")")
            }
            // 63 router IDs, one is the agent's and one router A's: 61 more fit, the next does not.
            for n in 0..<61 { try await env.addNode("router", 0x1000 + UInt64(n)) }
            let full = await env.addNodeError("router", 0x2000)
            #expect(full?.name == .invalidArgs && full?.message.contains("router ID") == true)
            #expect(try await env.neighborTable().count == 63)
        }
    }
}
