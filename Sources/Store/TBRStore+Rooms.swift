import TBRFoundation

extension TBRStore {
    /// The longest room name, in UTF-8 bytes (the structure-name rules).
    public static let maximumRoomNameLength = StructureRecord.maximumNameLength

    /// The rooms of structure `id`, by name.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func rooms(inStructure id: StructureRecord.ID) async throws(StoreError) -> [String] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            return try db.query("SELECT name FROM rooms WHERE structure_id = ? ORDER BY name", [.integer(id.rawValue)]) { row throws(SQLiteError) in
                try row.get(0) as String
            }
        }
    }

    /// Adds room `name` (stored in NFC) to structure `id`.
    /// - Returns: the rooms of the structure after the change.
    /// - Throws: ``StoreError/invalidName(_:what:reason:)`` (the structure-name rules),
    ///   ``StoreError/duplicateRoom(room:structure:)``, ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func addRoom(_ name: String, to id: StructureRecord.ID) async throws(StoreError) -> [String] {
        if let problem = NameRules.problem(with: name, maximumBytes: Self.maximumRoomNameLength) {
            throw .invalidName(name, what: "a room", reason: problem)
        }
        let name = NameRules.canonical(name)
        return try await write { db, now in
            let structure = try Self.existingStructure(id, in: db)
            let taken: Int64? = try db.scalar(
                "SELECT 1 FROM rooms WHERE structure_id = ? AND name = ?", [.integer(id.rawValue), .text(name)])
            if taken != nil { throw StoreError.duplicateRoom(room: name, structure: structure.name) }
            try db.execute("INSERT INTO rooms (structure_id, name, created_at) VALUES (?, ?, ?)", [.integer(id.rawValue), .text(name), .real(now)])
            return try Self.roomNames(id, in: db)
        }
    }

    /// Removes room `name` from structure `id`, unless a Matter node is placed in it.
    /// - Returns: the rooms of the structure after the change.
    /// - Throws: ``StoreError/roomInUse(room:structure:nodes:)`` naming the nodes in it,
    ///   ``StoreError/roomNotFound(room:structure:)``, ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func removeRoom(_ name: String, from id: StructureRecord.ID) async throws(StoreError) -> [String] {
        let name = NameRules.canonical(name)
        return try await write { db, _ in
            let structure = try Self.existingStructure(id, in: db)
            try Self.checkRoom(name, of: structure, in: db)
            let nodes = try db.query(
                "SELECT node_id FROM matter_nodes WHERE structure_id = ? AND room = ? ORDER BY node_id", [.integer(id.rawValue), .text(name)]
            ) { row throws(SQLiteError) in UInt64(bitPattern: try row.get(0)) }
            guard nodes.isEmpty else { throw StoreError.roomInUse(room: name, structure: structure.name, nodes: nodes.sorted()) }
            try db.execute("DELETE FROM rooms WHERE structure_id = ? AND name = ?", [.integer(id.rawValue), .text(name)])
            return try Self.roomNames(id, in: db)
        }
    }

    /// Fails with ``StoreError/roomNotFound(room:structure:)`` unless `structure` has room `name` (in NFC).
    static func checkRoom(_ name: String, of structure: StructureRecord, in db: Database) throws {
        let found: Int64? = try db.scalar(
            "SELECT 1 FROM rooms WHERE structure_id = ? AND name = ?", [.integer(structure.id.rawValue), .text(name)])
        if found == nil { throw StoreError.roomNotFound(room: name, structure: structure.name) }
    }

    static func roomNames(_ id: StructureRecord.ID, in db: Database) throws -> [String] {
        try db.query("SELECT name FROM rooms WHERE structure_id = ? ORDER BY name", [.integer(id.rawValue)]) { row throws(SQLiteError) in
            try row.get(0) as String
        }
    }
}
