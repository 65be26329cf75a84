public import DeviceModel
public import MatterOnboarding
import TBRFoundation

/// Nodes and rooms kept in memory (the default of a ``BorderRouterService``): the same rules as tbrd's
/// SQLite store, except that it does not know which structures exist.
public actor InMemoryMatterNodeStore: MatterNodeStore {
    private var nodes: [NodeID: RecordedMatterNode] = [:]
    private var rooms: [StructureID: Set<String>] = [:]

    /// An empty store.
    public init() {}

    public func record(_ node: RecordedMatterNode) throws(HomeError) {
        var node = node
        node.name = try node.name.map(Self.checkedName)
        node.room = try node.room.map { room throws(HomeError) in try existingRoom(room, in: node.structure) }
        nodes[node.nodeID] = node
    }

    public func adopt(_ node: CommissionedNodeSummary, into structure: StructureID, backend: String) throws(HomeError) -> RecordedMatterNode {
        if let held = nodes[node.nodeID] {
            throw HomeError(.invalidState, "Matter node \(node.nodeID) is already recorded in structure \(held.structure)")
        }
        let record = RecordedMatterNode(
            nodeID: node.nodeID, structure: structure, vendorID: node.vendorID, productID: node.productID,
            commissionedAt: WallTime(secondsSinceEpoch: SystemClock().wallTime()), session: nil, payloadID: nil, extPanID: nil, backend: backend,
            name: node.label.flatMap { RecordedMatterNode.problem(withName: $0) == nil ? NameRules.canonical($0) : nil })
        nodes[node.nodeID] = record
        return record
    }

    public func name(_ node: NodeID, in structure: StructureID, _ name: String?) throws(HomeError) -> RecordedMatterNode {
        var record = try existing(node, in: structure)
        record.name = try name.map(Self.checkedName)
        nodes[node] = record
        return record
    }

    public func place(_ node: NodeID, in structure: StructureID, room: String?) throws(HomeError) -> RecordedMatterNode {
        var record = try existing(node, in: structure)
        record.room = try room.map { room throws(HomeError) in try existingRoom(room, in: structure) }
        nodes[node] = record
        return record
    }

    public func forget(_ node: NodeID) throws(HomeError) { nodes[node] = nil }

    public func nodes(in structure: StructureID) throws(HomeError) -> [RecordedMatterNode] {
        nodes.values.filter { $0.structure == structure }.sorted { $0.nodeID < $1.nodeID }
    }

    public func allNodes() throws(HomeError) -> [RecordedMatterNode] { nodes.values.sorted { $0.nodeID < $1.nodeID } }

    public func rooms(in structure: StructureID) throws(HomeError) -> [String] { (rooms[structure] ?? []).sorted() }

    public func addRoom(_ room: String, to structure: StructureID) throws(HomeError) -> [String] {
        if let problem = NameRules.problem(with: room, maximumBytes: 64) {
            throw HomeError(.invalidArgument, "\(Quoted(room)) cannot name a room: \(problem)")
        }
        guard rooms[structure, default: []].insert(NameRules.canonical(room)).inserted else {
            throw HomeError(.invalidArgument, "structure \(structure) already has a room \(Quoted(room))")
        }
        return try rooms(in: structure)
    }

    public func removeRoom(_ room: String, from structure: StructureID) throws(HomeError) -> [String] {
        let room = try existingRoom(room, in: structure)
        let held = nodes.values.filter { $0.structure == structure && $0.room == room }.map(\.nodeID).sorted()
        guard held.isEmpty else {
            throw HomeError(.invalidState, "room \(Quoted(room)) holds Matter nodes \(held.map(\.description).joined(separator: ", "))")
        }
        rooms[structure]?.remove(room)
        return try rooms(in: structure)
    }

    private func existing(_ node: NodeID, in structure: StructureID) throws(HomeError) -> RecordedMatterNode {
        guard let record = nodes[node], record.structure == structure else {
            throw HomeError(.notFound, "Matter node \(node) is not recorded in structure \(structure)")
        }
        return record
    }

    private func existingRoom(_ room: String, in structure: StructureID) throws(HomeError) -> String {
        let room = NameRules.canonical(room)
        guard rooms[structure]?.contains(room) == true else {
            throw HomeError(.invalidArgument, "structure \(structure) has no room \(Quoted(room))")
        }
        return room
    }

    private static func checkedName(_ name: String) throws(HomeError) -> String {
        if let problem = RecordedMatterNode.problem(withName: name) { throw HomeError(.invalidArgument, problem) }
        return NameRules.canonical(name)
    }
}
