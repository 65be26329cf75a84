public import TBRFoundation

extension TBRStore {
    /// Makes `router` a member of the structure `id`. Adding a router to the structure it is already in
    /// changes nothing.
    /// - Throws: ``StoreError/structureNotFound(_:)``, ``StoreError/routerNotFound(_:)`` (record it first
    ///   with ``recordRouter(_:interfaceName:borderAgentID:)``),
    ///   ``StoreError/routerInAnotherStructure(router:structure:)``, or `.sqlite`.
    public func addRouter(_ router: DeviceID, toStructure id: StructureRecord.ID) async throws(StoreError) {
        try await write { db, now in
            _ = try Self.existingStructure(id, in: db)
            try Self.requireKnownRouter(router, in: db)
            let current: Int64? = try db.scalar(
                "SELECT structure_id FROM memberships WHERE router_id = ?", [.text(router.rawValue)])
            if let current {
                if current == id.rawValue { return }
                let other = try Self.existingStructure(StructureRecord.ID(rawValue: current), in: db)
                throw StoreError.routerInAnotherStructure(router: router, structure: other.name)
            }
            try db.execute(
                "INSERT INTO memberships (router_id, structure_id, added_at) VALUES (?, ?, ?)",
                [.text(router.rawValue), .integer(id.rawValue), .real(now)])
        }
    }

    /// Removes `router` from the structure `id`.
    /// - Throws: ``StoreError/structureNotFound(_:)``, ``StoreError/routerNotInStructure(router:structure:)``,
    ///   or `.sqlite`.
    public func removeRouter(_ router: DeviceID, fromStructure id: StructureRecord.ID) async throws(StoreError) {
        try await write { db, _ in
            let structure = try Self.existingStructure(id, in: db)
            try db.execute(
                "DELETE FROM memberships WHERE router_id = ? AND structure_id = ?",
                [.text(router.rawValue), .integer(id.rawValue)])
            guard db.changes == 1 else { throw StoreError.routerNotInStructure(router: router, structure: structure.name) }
        }
    }

    /// The routers of the structure `id`, by id.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func routers(inStructure id: StructureRecord.ID) async throws(StoreError) -> [DeviceID] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            return try db.query(
                "SELECT router_id FROM memberships WHERE structure_id = ? ORDER BY router_id", [.integer(id.rawValue)]
            ) { row throws(SQLiteError) in try Self.routerID(row.get(0)) }
        }
    }

    /// The structure `router` belongs to, or nil.
    /// - Throws: ``StoreError``.
    public func structure(containing router: DeviceID) async throws(StoreError) -> StructureRecord? {
        try await read { db in
            try db.query(
                """
                SELECT \(Self.structureColumns) FROM structures
                WHERE id = (SELECT structure_id FROM memberships WHERE router_id = ?)
                """, [.text(router.rawValue)], Self.structure(from:)
            ).first
        }
    }

    /// A router id read from the database.
    static func routerID(_ text: String) throws(SQLiteError) -> DeviceID {
        guard let id = DeviceID(rawValue: text) else {
            throw SQLiteError.mismatch("invalid router id \"\(text)\" in the database", sql: nil)
        }
        return id
    }
}

extension TBRStore {
    /// Every structure with its routers, read in one snapshot: a structure deleted meanwhile is either
    /// listed whole or not at all, never half.
    /// - Throws: ``StoreError``.
    public func structuresWithRouters() async throws(StoreError) -> [(structure: StructureRecord, routers: [DeviceID])] {
        try await read { db in
            let structures = try db.query("SELECT \(Self.structureColumns) FROM structures ORDER BY name", [], Self.structure(from:))
            let pairs = try db.query("SELECT structure_id, router_id FROM memberships ORDER BY router_id", []) {
                row throws(SQLiteError) in (try row.get(0) as Int64, try Self.routerID(row.get(1)))
            }
            let members = Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
            return structures.map { ($0, members[$0.id.rawValue] ?? []) }
        }
    }

    /// The structure with `id` and its routers, read in one snapshot, or nil when there is none.
    /// - Throws: ``StoreError``.
    public func structureWithRouters(id: StructureRecord.ID) async throws(StoreError) -> (structure: StructureRecord, routers: [DeviceID])? {
        try await read { db in
            guard
                let structure = try db.query(
                    "SELECT \(Self.structureColumns) FROM structures WHERE id = ?", [.integer(id.rawValue)], Self.structure(from:)
                ).first
            else { return nil }
            let routers = try db.query(
                "SELECT router_id FROM memberships WHERE structure_id = ? ORDER BY router_id", [.integer(id.rawValue)]
            ) { row throws(SQLiteError) in try Self.routerID(row.get(0)) }
            return (structure, routers)
        }
    }
}
