import TBRFoundation

extension TBRStore {
    static let matterNodeColumns =
        "node_id, structure_id, vendor_id, product_id, commissioned_at, session_id, payload_id, ext_pan_id, backend, name, room"

    static func matterNode(from row: Row) throws(SQLiteError) -> MatterNodeRecord {
        let vendor: Int64 = try row.get(2), product: Int64 = try row.get(3)
        return MatterNodeRecord(
            nodeID: UInt64(bitPattern: try row.get(0)), structure: StructureRecord.ID(rawValue: try row.get(1)),
            vendorID: UInt16(truncatingIfNeeded: vendor), productID: UInt16(truncatingIfNeeded: product),
            commissionedAt: try row.get(4), sessionID: try row.get(5), payloadID: try row.get(6), extPanID: try row.get(7),
            backend: try row.get(8), name: try row.get(9), room: try row.get(10))
    }

    /// Records a commissioned (or adopted) node in its structure, in one transaction; a row with the same
    /// node ID (an earlier node of that ID) is replaced. Its name is stored in NFC.
    /// - Throws: ``StoreError/structureNotFound(_:)``, ``StoreError/invalidArgument(_:)`` for an empty
    ///   session id or a payload id without a session, ``StoreError/invalidName(_:what:reason:)``,
    ///   ``StoreError/roomNotFound(room:structure:)``, or `.sqlite`.
    public func recordMatterNode(_ node: MatterNodeRecord) async throws(StoreError) {
        guard node.sessionID.map({ !$0.isEmpty }) ?? true else {
            throw .invalidArgument("a Matter node's record needs the session it came from")
        }
        guard (node.sessionID == nil) == (node.payloadID == nil) else {
            throw .invalidArgument("a Matter node's record has a payload id exactly when it has a session")
        }
        var checked = node
        checked.name = try node.name.map(Self.checkedNodeName)
        checked.room = node.room.map(NameRules.canonical)
        let node = checked
        try await write { db, _ in
            let structure = try Self.existingStructure(node.structure, in: db)
            if let room = node.room { try Self.checkRoom(room, of: structure, in: db) }
            try db.execute(
                "INSERT OR REPLACE INTO matter_nodes (\(Self.matterNodeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(Int64(bitPattern: node.nodeID)), .integer(node.structure.rawValue), .integer(Int64(node.vendorID)),
                    .integer(Int64(node.productID)), .real(node.commissionedAt), SQLiteValue(node.sessionID), SQLiteValue(node.payloadID),
                    SQLiteValue(node.extPanID), .text(node.backend), SQLiteValue(node.name), SQLiteValue(node.room),
                ])
        }
    }

    /// Records node `nodeID`, commissioned by another controller on the shared commissioner, in structure
    /// `id` (no session; now as the time), unless a structure already holds it.
    /// - Throws: ``StoreError/matterNodeAlreadyRecorded(node:structure:)`` naming the structure that holds it,
    ///   ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func adoptMatterNode(
        _ nodeID: UInt64, into id: StructureRecord.ID, vendorID: UInt16, productID: UInt16, backend: String, name: String?
    ) async throws(StoreError) -> MatterNodeRecord {
        let name = try name.map(Self.checkedNodeName)
        return try await write { db, now in
            _ = try Self.existingStructure(id, in: db)
            if let holder = try Self.structureHolding(nodeID, in: db) {
                throw StoreError.matterNodeAlreadyRecorded(node: nodeID, structure: holder.name)
            }
            let record = MatterNodeRecord(
                nodeID: nodeID, structure: id, vendorID: vendorID, productID: productID, commissionedAt: now, sessionID: nil, payloadID: nil,
                extPanID: nil, backend: backend, name: name)
            try db.execute(
                "INSERT INTO matter_nodes (\(Self.matterNodeColumns)) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?, NULL)",
                [
                    .integer(Int64(bitPattern: nodeID)), .integer(id.rawValue), .integer(Int64(vendorID)), .integer(Int64(productID)),
                    .real(now), .text(backend), SQLiteValue(name),
                ])
            return record
        }
    }

    /// Names node `nodeID` of structure `id` (nil: no name), stored in NFC.
    /// - Throws: ``StoreError/matterNodeNotFound(node:structure:)``, ``StoreError/invalidName(_:what:reason:)``,
    ///   ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func nameMatterNode(_ nodeID: UInt64, in id: StructureRecord.ID, _ name: String?) async throws(StoreError) -> MatterNodeRecord {
        let name = try name.map(Self.checkedNodeName)
        return try await changeMatterNode(nodeID, in: id) { db, node in
            try db.execute("UPDATE matter_nodes SET name = ? WHERE node_id = ?", [SQLiteValue(name), .integer(Int64(bitPattern: nodeID))])
            node.name = name
        }
    }

    /// Places node `nodeID` of structure `id` in `room` (nil: in none).
    /// - Throws: ``StoreError/matterNodeNotFound(node:structure:)``, ``StoreError/roomNotFound(room:structure:)``,
    ///   ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func placeMatterNode(_ nodeID: UInt64, in id: StructureRecord.ID, room: String?) async throws(StoreError) -> MatterNodeRecord {
        let room = room.map(NameRules.canonical)
        return try await changeMatterNode(nodeID, in: id) { db, node in
            if let room { try Self.checkRoom(room, of: try Self.existingStructure(id, in: db), in: db) }
            try db.execute("UPDATE matter_nodes SET room = ? WHERE node_id = ?", [SQLiteValue(room), .integer(Int64(bitPattern: nodeID))])
            node.room = room
        }
    }

    /// Runs `change` on node `nodeID` of structure `id` in one transaction and returns the node as changed.
    private func changeMatterNode(
        _ nodeID: UInt64, in id: StructureRecord.ID, _ change: @escaping @Sendable (Database, inout MatterNodeRecord) throws -> Void
    ) async throws(StoreError) -> MatterNodeRecord {
        try await write { db, _ in
            let structure = try Self.existingStructure(id, in: db)
            guard
                var node = try db.query(
                    "SELECT \(Self.matterNodeColumns) FROM matter_nodes WHERE node_id = ? AND structure_id = ?",
                    [.integer(Int64(bitPattern: nodeID)), .integer(id.rawValue)], Self.matterNode(from:)
                ).first
            else { throw StoreError.matterNodeNotFound(node: nodeID, structure: structure.name) }
            try change(db, &node)
            return node
        }
    }

    /// `name` in NFC when it can name a Matter node.
    static func checkedNodeName(_ name: String) throws(StoreError) -> String {
        if let problem = NameRules.problem(with: name, maximumBytes: MatterNodeRecord.maximumNameLength) {
            throw .invalidName(name, what: "a Matter node", reason: problem)
        }
        return NameRules.canonical(name)
    }

    /// The structure that holds node `nodeID`, if any.
    static func structureHolding(_ nodeID: UInt64, in db: Database) throws -> StructureRecord? {
        let holder: Int64? = try db.scalar("SELECT structure_id FROM matter_nodes WHERE node_id = ?", [.integer(Int64(bitPattern: nodeID))])
        return try holder.map { try existingStructure(StructureRecord.ID(rawValue: $0), in: db) }
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
