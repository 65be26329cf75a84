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
            #expect(store.database.openedAtVersion == 3 && store.schemaVersion == TBRStore.migrations.count)
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

    @Test("version 5 keeps version 4's nodes, with no name, no room and their session")
    func upgradeFromVersion4() async throws {
        try await withFixture { f in
            do {
                let v4 = try DatabaseActor(path: f.path, migrations: Array(TBRStore.migrations.prefix(4)))
                try await v4.write { db in
                    try db.execute("INSERT INTO structures (name, created_at) VALUES ('Home', 1)")
                    try db.execute(
                        "INSERT INTO matter_nodes VALUES (5, 1, 65521, 32768, 10, 's1', '1', '1111111122222222', 'matter-server')")
                }
            }
            let store = try f.open()
            #expect(store.database.openedAtVersion == 4 && store.schemaVersion == TBRStore.migrations.count)
            let home = try #require(try await store.structure(named: "Home"))
            let nodes = try await store.matterNodes(inStructure: home.id)
            #expect(nodes.map(\.nodeID) == [5])
            #expect(nodes.first?.sessionID == "s1" && nodes.first?.payloadID == "1")
            #expect(nodes.first?.name == nil && nodes.first?.room == nil)
            #expect(try await store.rooms(inStructure: home.id).isEmpty)
        }
    }

    @Test("rooms: per structure, in NFC, by the structure-name rules; a room holding nodes is kept, naming them")
    func rooms() async throws {
        try await withFixture { f in
            let store = try f.open()
            let home = try await store.createStructure(named: "Home")
            let away = try await store.createStructure(named: "Away")
            #expect(try await store.addRoom("Kitchen", to: home.id) == ["Kitchen"])
            // "Café" decomposed is the same room as precomposed.
            #expect(try await store.addRoom("Cafe\u{301}", to: home.id) == ["Café", "Kitchen"])
            #expect(try await store.addRoom("Kitchen", to: away.id) == ["Kitchen"])
            await #expect(throws: StoreError.duplicateRoom(room: "Café", structure: "Home")) { try await store.addRoom("Café", to: home.id) }
            for bad in ["", " Hall", "Hall\u{200B}", "Hall\n", String(repeating: "x", count: 65)] {
                do throws(StoreError) {
                    try await store.addRoom(bad, to: home.id)
                    Issue.record("room \(bad.debugDescription) was accepted")
                } catch {
                    guard case .invalidName(_, let what, _) = error else { Issue.record("\(error)"); continue }
                    #expect(what == "a room")
                }
            }

            var lamp = Self.node(5, in: home.id)
            lamp.name = "Lamp"
            lamp.room = "Kitchen"
            try await store.recordMatterNode(lamp)
            var plug = Self.node(6, in: home.id)
            plug.room = "Kitchen"
            try await store.recordMatterNode(plug)
            await #expect(throws: StoreError.roomInUse(room: "Kitchen", structure: "Home", nodes: [5, 6])) {
                try await store.removeRoom("Kitchen", from: home.id)
            }
            #expect(try await store.removeRoom("Kitchen", from: away.id).isEmpty, "the other structure's Kitchen goes")
            // Moving the nodes out frees the room.
            try await store.placeMatterNode(5, in: home.id, room: "Café")
            let unplaced = try await store.placeMatterNode(6, in: home.id, room: nil)
            #expect(unplaced.room == nil)
            #expect(try await store.removeRoom("Kitchen", from: home.id) == ["Café"])
            await #expect(throws: StoreError.roomNotFound(room: "Kitchen", structure: "Home")) {
                try await store.removeRoom("Kitchen", from: home.id)
            }
            // A room of another structure cannot hold a node.
            await #expect(throws: StoreError.roomNotFound(room: "Attic", structure: "Home")) {
                try await store.placeMatterNode(5, in: home.id, room: "Attic")
            }
            #expect(try await store.matterNodes(inStructure: home.id).map(\.room) == ["Café", nil])
            // Deleting the structure takes its rooms and nodes.
            try await store.deleteStructure(home.id)
            #expect(try await store.allMatterNodes().isEmpty)
        }
    }

    @Test("names: stored in NFC, at most 32 bytes (NodeLabel), removable; adopted nodes have no session")
    func namesAndAdoption() async throws {
        try await withFixture { f in
            let store = try f.open()
            let home = try await store.createStructure(named: "Home")
            let away = try await store.createStructure(named: "Away")
            try await store.recordMatterNode(Self.node(5, in: home.id))
            #expect(try await store.nameMatterNode(5, in: home.id, "Cafe\u{301} lamp").name == "Café lamp")
            #expect(try await store.nameMatterNode(5, in: home.id, String(repeating: "é", count: 16)).name?.utf8.count == 32)
            do throws(StoreError) {
                try await store.nameMatterNode(5, in: home.id, String(repeating: "x", count: 33))
                Issue.record("a 33-byte name was accepted")
            } catch {
                guard case .invalidName(_, "a Matter node", let reason) = error else { Issue.record("\(error)"); return }
                #expect(reason.contains("longer than 32 bytes"))
            }
            #expect(try await store.nameMatterNode(5, in: home.id, nil).name == nil)
            await #expect(throws: StoreError.matterNodeNotFound(node: 5, structure: "Away")) { try await store.nameMatterNode(5, in: away.id, "x") }

            let adopted = try await store.adoptMatterNode(900_000, into: away.id, vendorID: 0xFFF1, productID: 0x9000, backend: "matter-server", name: "HA plug")
            #expect(adopted.sessionID == nil && adopted.payloadID == nil && adopted.name == "HA plug")
            await #expect(throws: StoreError.matterNodeAlreadyRecorded(node: 900_000, structure: "Away")) {
                try await store.adoptMatterNode(900_000, into: home.id, vendorID: 0, productID: 0, backend: "matter-server", name: nil)
            }
            await #expect(throws: StoreError.matterNodeAlreadyRecorded(node: 5, structure: "Home")) {
                try await store.adoptMatterNode(5, into: away.id, vendorID: 0, productID: 0, backend: "matter-server", name: nil)
            }
            let store2 = try f.open()
            #expect(try await store2.matterNodes(inStructure: away.id) == [adopted])
        }
    }
}
