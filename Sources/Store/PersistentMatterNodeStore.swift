package import DeviceModel
package import MatterOnboarding
import MeshCoP
package import MatterCommissioning
import TBRFoundation

/// The Matter nodes and the rooms of each structure, kept in tbrd's SQLite store (tables `matter_nodes`
/// and `rooms`): they survive restarts. Each change is one transaction.
package struct PersistentMatterNodeStore: MatterNodeStore {
    package let store: TBRStore

    package init(store: TBRStore) { self.store = store }

    package func record(_ node: RecordedMatterNode) async throws(HomeError) {
        let structure = try PersistentStructureStore.recordID(node.structure)
        try await call { () throws(StoreError) in
            try await store.recordMatterNode(
                MatterNodeRecord(
                    nodeID: node.nodeID.rawValue, structure: structure, vendorID: node.vendorID, productID: node.productID,
                    commissionedAt: node.commissionedAt.secondsSinceEpoch, sessionID: node.session?.rawValue, payloadID: node.payloadID,
                    extPanID: node.extPanID?.description, backend: node.backend, name: node.name, room: node.room))
        }
    }

    package func adopt(_ node: CommissionedNodeSummary, into structure: StructureID, backend: String) async throws(HomeError) -> RecordedMatterNode {
        let id = try PersistentStructureStore.recordID(structure)
        return Self.node(
            try await call { () throws(StoreError) in
                try await store.adoptMatterNode(
                    node.nodeID.rawValue, into: id, vendorID: node.vendorID, productID: node.productID, backend: backend, name: node.label)
            })
    }

    package func name(_ node: NodeID, in structure: StructureID, _ name: String?) async throws(HomeError) -> RecordedMatterNode {
        let id = try PersistentStructureStore.recordID(structure)
        return Self.node(try await call { () throws(StoreError) in try await store.nameMatterNode(node.rawValue, in: id, name) })
    }

    package func place(_ node: NodeID, in structure: StructureID, room: String?) async throws(HomeError) -> RecordedMatterNode {
        let id = try PersistentStructureStore.recordID(structure)
        return Self.node(try await call { () throws(StoreError) in try await store.placeMatterNode(node.rawValue, in: id, room: room) })
    }

    package func forget(_ node: NodeID) async throws(HomeError) {
        _ = try await call { () throws(StoreError) in try await store.removeMatterNode(node.rawValue) }
    }

    package func nodes(in structure: StructureID) async throws(HomeError) -> [RecordedMatterNode] {
        let id = try PersistentStructureStore.recordID(structure)
        return try await call { () throws(StoreError) in try await store.matterNodes(inStructure: id) }.map(Self.node)
    }

    package func allNodes() async throws(HomeError) -> [RecordedMatterNode] {
        try await call { () throws(StoreError) in try await store.allMatterNodes() }.map(Self.node)
    }

    package func rooms(in structure: StructureID) async throws(HomeError) -> [String] {
        let id = try PersistentStructureStore.recordID(structure)
        return try await call { () throws(StoreError) in try await store.rooms(inStructure: id) }
    }

    package func addRoom(_ room: String, to structure: StructureID) async throws(HomeError) -> [String] {
        let id = try PersistentStructureStore.recordID(structure)
        return try await call { () throws(StoreError) in try await store.addRoom(room, to: id) }
    }

    package func removeRoom(_ room: String, from structure: StructureID) async throws(HomeError) -> [String] {
        let id = try PersistentStructureStore.recordID(structure)
        return try await call { () throws(StoreError) in try await store.removeRoom(room, from: id) }
    }

    private func call<T>(_ body: () async throws(StoreError) -> T) async throws(HomeError) -> T {
        do { return try await body() } catch { throw PersistentStructureStore.homeError(error) }
    }

    package static func node(_ r: MatterNodeRecord) -> RecordedMatterNode {
        RecordedMatterNode(
            nodeID: NodeID(r.nodeID), structure: PersistentStructureStore.id(r.structure), vendorID: r.vendorID, productID: r.productID,
            commissionedAt: WallTime(secondsSinceEpoch: r.commissionedAt), session: r.sessionID.map(CommissioningSessionID.init(rawValue:)),
            payloadID: r.payloadID, extPanID: r.extPanID.flatMap { ExtendedPANID($0) }, backend: r.backend, name: r.name, room: r.room)
    }
}
