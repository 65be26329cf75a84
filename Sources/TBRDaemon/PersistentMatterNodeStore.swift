import BorderRouterService
import DeviceModel
import MatterOnboarding
import MeshCoP
import Store

/// The commissioned Matter nodes, kept in tbrd's SQLite store (table `matter_nodes`): they survive
/// restarts. Each record is one transaction.
struct PersistentMatterNodeStore: MatterNodeStore {
    let store: TBRStore

    func record(_ node: RecordedMatterNode) async throws(HomeError) {
        let structure = try PersistentStructureStore.recordID(node.structure)
        do {
            try await store.recordMatterNode(
                MatterNodeRecord(
                    nodeID: node.nodeID.rawValue, structure: structure, vendorID: node.vendorID, productID: node.productID,
                    commissionedAt: node.commissionedAt.secondsSinceEpoch, sessionID: node.session.rawValue, payloadID: node.payloadID,
                    extPanID: node.extPanID?.description, backend: node.backend))
        } catch {
            throw PersistentStructureStore.homeError(error)
        }
    }

    func nodes(in structure: StructureID) async throws(HomeError) -> [RecordedMatterNode] {
        let id = try PersistentStructureStore.recordID(structure)
        do { return try await store.matterNodes(inStructure: id).map(Self.node) } catch { throw PersistentStructureStore.homeError(error) }
    }

    func allNodes() async throws(HomeError) -> [RecordedMatterNode] {
        do { return try await store.allMatterNodes().map(Self.node) } catch { throw PersistentStructureStore.homeError(error) }
    }

    static func node(_ r: MatterNodeRecord) -> RecordedMatterNode {
        RecordedMatterNode(
            nodeID: NodeID(r.nodeID), structure: PersistentStructureStore.id(r.structure), vendorID: r.vendorID, productID: r.productID,
            commissionedAt: WallTime(secondsSinceEpoch: r.commissionedAt), session: CommissioningSessionID(rawValue: r.sessionID),
            payloadID: r.payloadID, extPanID: r.extPanID.flatMap { ExtendedPANID($0) }, backend: r.backend)
    }
}
