import Foundation
import Store
import TBRTestKit
import Testing

@Suite("Matter nodes")
struct MatterNodeTests {
    static func node(_ id: UInt64, in structure: StructureRecord.ID, at time: Double = 10) -> MatterNodeRecord {
        MatterNodeRecord(
            nodeID: id, structure: structure, vendorID: 0xFFF1, productID: 0x8000, commissionedAt: time, sessionID: "s1",
            payloadID: "1", extPanID: "1111111122222222", backend: "simulated")
    }

    @Test("version 4 adds matter_nodes to a version 3 database and keeps its data")
    func upgradeFromVersion3() async throws {
        try await withFixture { f in
            do {
                let v3 = try DatabaseActor(path: f.path, migrations: Array(TBRStore.migrations.prefix(3)))
                try await v3.write { db in try db.execute("INSERT INTO structures (name, created_at) VALUES ('Home', 1)") }
            }
            let store = try f.open()
            #expect(store.database.openedAtVersion == 3 && store.schemaVersion == 4)
            let home = try #require(try await store.structure(named: "Home"))
            #expect(try await store.matterNodes(inStructure: home.id).isEmpty)
        }
    }

    @Test("nodes are kept per structure across a reopen, all 64 bits of the node ID, and go with their structure")
    func recordListAndCascade() async throws {
        try await withFixture { f in
            let high: UInt64 = 0xFFFF_FFEF_FFFF_FFFF
            do {
                let store = try f.open()
                let home = try await store.createStructure(named: "Home")
                let away = try await store.createStructure(named: "Away")
                try await store.recordMatterNode(Self.node(2, in: home.id))
                try await store.recordMatterNode(Self.node(high, in: home.id))
                var onNetwork = Self.node(7, in: away.id)
                onNetwork.extPanID = nil
                try await store.recordMatterNode(onNetwork)
            }
            let store = try f.open()
            let home = try #require(try await store.structure(named: "Home"))
            let away = try #require(try await store.structure(named: "Away"))
            #expect(try await store.matterNodes(inStructure: home.id) == [Self.node(2, in: home.id), Self.node(high, in: home.id)])
            #expect(try await store.matterNodes(inStructure: away.id).map(\.extPanID) == [nil])
            #expect(try await store.allMatterNodes().map(\.nodeID) == [2, 7, high])

            // A node ID names one node: recording it again moves it.
            try await store.recordMatterNode(Self.node(7, in: home.id, at: 20))
            #expect(try await store.matterNodes(inStructure: away.id).isEmpty)
            #expect(try await store.matterNodes(inStructure: home.id).map(\.nodeID) == [2, 7, high])

            #expect(try await store.removeMatterNode(2))
            #expect(try await !store.removeMatterNode(2))
            try await store.deleteStructure(home.id)
            #expect(try await store.allMatterNodes().isEmpty)
            await #expect(throws: StoreError.self) { try await store.recordMatterNode(Self.node(3, in: home.id)) }
            await #expect(throws: StoreError.self) { try await store.matterNodes(inStructure: home.id) }
        }
    }
}
