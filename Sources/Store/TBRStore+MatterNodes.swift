extension TBRStore {
    static let matterNodeColumns =
        "node_id, structure_id, vendor_id, product_id, commissioned_at, session_id, payload_id, ext_pan_id, backend"

    static func matterNode(from row: Row) throws(SQLiteError) -> MatterNodeRecord {
        let vendor: Int64 = try row.get(2), product: Int64 = try row.get(3)
        return MatterNodeRecord(
            nodeID: UInt64(bitPattern: try row.get(0)), structure: StructureRecord.ID(rawValue: try row.get(1)),
            vendorID: UInt16(truncatingIfNeeded: vendor), productID: UInt16(truncatingIfNeeded: product),
            commissionedAt: try row.get(4), sessionID: try row.get(5), payloadID: try row.get(6), extPanID: try row.get(7),
            backend: try row.get(8))
    }

    /// Records a commissioned node in its structure, in one transaction; a row with the same node ID
    /// (an earlier node of that ID) is replaced.
    /// - Throws: ``StoreError/structureNotFound(_:)``, ``StoreError/invalidArgument(_:)`` for an empty
    ///   session id, or `.sqlite`.
    public func recordMatterNode(_ node: MatterNodeRecord) async throws(StoreError) {
        guard !node.sessionID.isEmpty else { throw .invalidArgument("a Matter node's record needs the session it came from") }
        try await write { db, _ in
            _ = try Self.existingStructure(node.structure, in: db)
            try db.execute(
                "INSERT OR REPLACE INTO matter_nodes (\(Self.matterNodeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(Int64(bitPattern: node.nodeID)), .integer(node.structure.rawValue), .integer(Int64(node.vendorID)),
                    .integer(Int64(node.productID)), .real(node.commissionedAt), .text(node.sessionID), .text(node.payloadID),
                    SQLiteValue(node.extPanID), .text(node.backend),
                ])
        }
    }

    /// The nodes of structure `id`, by node ID.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func matterNodes(inStructure id: StructureRecord.ID) async throws(StoreError) -> [MatterNodeRecord] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            return try db.query(
                "SELECT \(Self.matterNodeColumns) FROM matter_nodes WHERE structure_id = ?", [.integer(id.rawValue)],
                Self.matterNode(from:)
            ).sorted { $0.nodeID < $1.nodeID }
        }
    }

    /// Every recorded node, by node ID.
    /// - Throws: ``StoreError``.
    public func allMatterNodes() async throws(StoreError) -> [MatterNodeRecord] {
        try await read { db in
            try db.query("SELECT \(Self.matterNodeColumns) FROM matter_nodes", [], Self.matterNode(from:)).sorted { $0.nodeID < $1.nodeID }
        }
    }

    /// Forgets node `nodeID` (it left the fabric); harmless when it is not recorded.
    /// - Returns: whether a row was removed.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func removeMatterNode(_ nodeID: UInt64) async throws(StoreError) -> Bool {
        try await write { db, _ in
            try db.execute("DELETE FROM matter_nodes WHERE node_id = ?", [.integer(Int64(bitPattern: nodeID))])
            return db.changes > 0
        }
    }
}
