public import DeviceModel
public import MatterOnboarding
public import MeshCoP

/// A Matter node commissioned into a structure, as it is recorded (never with its passcode or payload).
public struct RecordedMatterNode: Hashable, Sendable {
    /// Its node ID.
    public var nodeID: NodeID
    /// The structure it belongs to.
    public var structure: StructureID
    /// Its vendor ID, 0 when the commissioner did not read it.
    public var vendorID: UInt16
    /// Its product ID, 0 when the commissioner did not read it.
    public var productID: UInt16
    /// When it was commissioned.
    public var commissionedAt: WallTime
    /// The session it came from.
    public var session: CommissioningSessionID
    /// Its payload's id in that session.
    public var payloadID: String
    /// The Thread network it was given; nil when it was already on a network.
    public var extPanID: ExtendedPANID?
    /// The commissioner backend (`matter-server`, `simulated`).
    public var backend: String

    /// A node as given.
    public init(
        nodeID: NodeID, structure: StructureID, vendorID: UInt16, productID: UInt16, commissionedAt: WallTime,
        session: CommissioningSessionID, payloadID: String, extPanID: ExtendedPANID?, backend: String
    ) {
        self.nodeID = nodeID
        self.structure = structure
        self.vendorID = vendorID
        self.productID = productID
        self.commissionedAt = commissionedAt
        self.session = session
        self.payloadID = payloadID
        self.extPanID = extPanID
        self.backend = backend
    }
}

/// Where commissioned nodes are recorded, per structure. tbrd keeps them in its SQLite store (they
/// survive restarts); a service made without one keeps them in memory.
public protocol MatterNodeStore: Sendable {
    /// Records `node` (replacing an earlier node of the same ID).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` when its structure is gone; `failed` when it cannot
    ///   be stored.
    func record(_ node: RecordedMatterNode) async throws(HomeError)

    /// The nodes of `structure`, by node ID.
    /// - Throws: ``DeviceModel/HomeError`` `notFound`.
    func nodes(in structure: StructureID) async throws(HomeError) -> [RecordedMatterNode]

    /// Every recorded node, by node ID.
    /// - Throws: ``DeviceModel/HomeError``.
    func allNodes() async throws(HomeError) -> [RecordedMatterNode]
}

/// Nodes kept in memory (the default of a ``BorderRouterService``).
public actor InMemoryMatterNodeStore: MatterNodeStore {
    private var nodes: [NodeID: RecordedMatterNode] = [:]

    /// An empty store.
    public init() {}

    public func record(_ node: RecordedMatterNode) throws(HomeError) { nodes[node.nodeID] = node }

    public func nodes(in structure: StructureID) throws(HomeError) -> [RecordedMatterNode] {
        nodes.values.filter { $0.structure == structure }.sorted { $0.nodeID < $1.nodeID }
    }

    public func allNodes() throws(HomeError) -> [RecordedMatterNode] { nodes.values.sorted { $0.nodeID < $1.nodeID } }
}
