import DBus
import MeshCoP
import OpenThreadBR
import TBRFoundation
import Testing

/// The mesh built from one agent's tables, with the real agent's `ChildTable` defects: the list stops at the
/// first empty slot and its RLOC16 field holds garbage (`../shared/otbr/README.md`, "With real neighbours").
@Suite struct MeshTopologyTests {
    static let me = ExtendedAddress(rawValue: 0x1111_1111_1111_1111)
    static let routerA = ExtendedAddress(rawValue: 0xAAAA_0000_0000_0001)
    static let childA = ExtendedAddress(rawValue: 0xC000_0000_0000_0001)
    static let childB = ExtendedAddress(rawValue: 0xC000_0000_0000_0002)
    static let omr = OnMeshPrefix(
        prefix: IPv6Prefix("fd12:3456:789a:1::/64")!, rloc16: 0x1400, preference: .low, preferred: true, slaac: true,
        onMesh: true, stable: true)

    static func neighbor(_ a: ExtendedAddress, _ rloc16: UInt16, child: Bool, lq: UInt8 = 3, rxOn: Bool = true) -> NeighborEntry {
        NeighborEntry(
            extAddress: a, age: 7, rloc16: rloc16, linkQualityIn: lq, rxOnWhenIdle: rxOn, fullThreadDevice: !child, isChild: child)
    }

    static func tables(role: DeviceRole = .leader, children: [ChildEntry] = []) throws -> MeshTables {
        MeshTables(
            role: role, extAddress: me, rloc16: 0x1400,
            leaderData: LeaderData(partitionID: 0x1234_5678, weighting: 64, dataVersion: 1, stableDataVersion: 1, leaderRouterID: 5),
            neighbors: [
                neighbor(routerA, 0x0400, child: false, lq: 2), neighbor(childA, 0x1401, child: true),
                neighbor(childB, 0x1402, child: true, lq: 1, rxOn: false),
            ],
            children: children, onMeshPrefixes: [omr], externalRoutes: [])
    }

    @Test func everyChildComesFromTheNeighbourTableWithItsRealRloc16() throws {
        // The agent's ChildTable lists only childA (slot 2 after an empty one is cut off) with a garbage RLOC16.
        let listed = try ChildEntry(
            dbusValue: .structure([
                .uint64(Self.childA.rawValue), .uint32(240), .uint32(7), .uint16(0xBEEF), .uint16(1), .byte(1), .byte(3),
                .byte(0xC4), .byte(0xC4), .uint16(0), .uint16(0), .bool(true), .bool(false), .bool(true), .bool(false),
            ]))
        let topology = MeshTopology(tables: try Self.tables(children: [listed]))
        #expect(topology.partitionID == 0x1234_5678)
        #expect(topology.leaderRouterID == 5)
        #expect(topology.nodes.map(\.extAddress) == [Self.me, Self.routerA, Self.childA, Self.childB])
        let me = try #require(topology.node(Self.me))
        #expect(me.role == .leader && me.source == .self && me.routerID == 5)
        #expect(me.links == [MeshLink(rloc16: 0x0400, linkQualityIn: 2, linkQualityOut: nil)])
        let router = try #require(topology.node(Self.routerA))
        #expect(router.role == .router && router.routerID == 1 && router.parent == nil && router.linkQualityIn == 2)
        let a = try #require(topology.node(Self.childA))
        #expect(a.rloc16 == 0x1401 && a.parent == Self.me && a.timeout == 240 && a.age == 7)
        let b = try #require(topology.node(Self.childB))
        #expect(b.rloc16 == 0x1402 && b.parent == Self.me && b.timeout == nil)
        #expect(b.mode == MeshNode.Mode(rxOnWhenIdle: false, fullThreadDevice: false))
        #expect(topology.omrPrefixes == [Self.omr.prefix])
    }

    @Test func aDetachedRouterShowsOnlyItself() throws {
        var t = try Self.tables(role: .detached)
        t.leaderData = nil
        let topology = MeshTopology(tables: t)
        #expect(topology.nodes.map(\.extAddress) == [Self.me])
        #expect(topology.partitionID == nil && topology.leaderRouterID == nil && topology.onMeshPrefixes.isEmpty)
    }

    @Test func aChildBorderRouterHangsOffItsParent() throws {
        var t = try Self.tables(role: .child)
        t.rloc16 = 0x0401
        t.neighbors = [Self.neighbor(Self.routerA, 0x0400, child: false)]
        let topology = MeshTopology(tables: t)
        let me = try #require(topology.node(Self.me))
        #expect(me.role == .child && me.parent == Self.routerA && me.links.isEmpty)
    }

    @Test func omrFollowsOpenThreadsRule() {
        var p = Self.omr
        #expect(p.isOMR)
        p.slaac = false
        #expect(!p.isOMR)
        p = Self.omr
        p.prefix = IPv6Prefix("fd12:3456::/48")!
        #expect(!p.isOMR)
        p = Self.omr
        p.domainPrefix = true
        #expect(!p.isOMR)
    }

    @Test func prefixesDecodeFromTheAgentsEightBytes() throws {
        let value = DBusValue.structure(
            [.structure([.bytes([0xFD, 0x12, 0x34, 0x56, 0x78, 0x9A, 0, 1]), .byte(64)]), .uint16(0x1400), .byte(0xFF)]
                + [true, true, false, false, false, true, true, false, false].map { .bool($0) })
        let p = try OnMeshPrefix(dbusValue: value)
        #expect(p.prefix.description == "fd12:3456:789a:1::/64" && p.preference == .low && p.isOMR)
        #expect(try OnMeshPrefix(dbusValue: p.dbusValue) == p)
        let tooLong = DBusValue.structure(
            [.structure([.bytes([0xFD]), .byte(64)]), .uint16(0), .byte(0)] + Array(repeating: .bool(false), count: 9))
        #expect(throws: DBusValueError.self) { try OnMeshPrefix(dbusValue: tooLong) }
    }
}
