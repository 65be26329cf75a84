import TBRFoundation

extension TBRStore {
    static let structureColumns =
        "id, name, created_at, internet_access_option, default_thread_network_id, settings_updated_at, recovery"

    static func structure(from row: Row) throws(SQLiteError) -> StructureRecord {
        StructureRecord(
            id: StructureRecord.ID(rawValue: try row.get(0)), name: try row.get(1), createdAt: try row.get(2),
            settings: StructureSettings(internetAccessOption: try row.get(3), defaultThreadNetworkID: try row.get(4), recovery: try row.get(6)),
            settingsUpdatedAt: try row.get(5))
    }

    /// The structure with `id`, or ``StoreError/structureNotFound(_:)``.
    static func existingStructure(_ id: StructureRecord.ID, in db: Database) throws -> StructureRecord {
        let found = try db.query(
            "SELECT \(structureColumns) FROM structures WHERE id = ?", [.integer(id.rawValue)], structure(from:))
        guard let structure = found.first else { throw StoreError.structureNotFound("with id \(id)") }
        return structure
    }

    static func checkName(_ name: String, unusedIn db: Database, except id: StructureRecord.ID? = nil) throws {
        if let problem = StructureRecord.problem(withName: name) { throw StoreError.invalidStructureName(name, reason: problem) }
        let owner: Int64? = try db.scalar("SELECT id FROM structures WHERE name = ?", [.text(name)])
        if let owner, owner != id?.rawValue { throw StoreError.duplicateStructureName(name) }
    }

    /// Creates a structure named `name`, with no routers and no settings.
    /// - Throws: ``StoreError/duplicateStructureName(_:)``, ``StoreError/invalidStructureName(_:reason:)``
    ///   (see ``StructureRecord/problem(withName:)``), or `.sqlite`.
    @discardableResult
    public func createStructure(named name: String) async throws(StoreError) -> StructureRecord {
        let name = StructureRecord.canonicalName(name)
        return try await write { db, now in
            try Self.checkName(name, unusedIn: db)
            try db.execute("INSERT INTO structures (name, created_at) VALUES (?, ?)", [.text(name), .real(now)])
            return StructureRecord(id: StructureRecord.ID(rawValue: db.lastInsertRowID), name: name, createdAt: now)
        }
    }

    /// Every structure, by name.
    /// - Throws: ``StoreError``.
    public func structures() async throws(StoreError) -> [StructureRecord] {
        try await read { db in
            try db.query("SELECT \(Self.structureColumns) FROM structures ORDER BY name", [], Self.structure(from:))
        }
    }

    /// The structure named `name` (compared in NFC: see ``StructureRecord/canonicalName(_:)``), or nil.
    /// - Throws: ``StoreError``.
    public func structure(named name: String) async throws(StoreError) -> StructureRecord? {
        let name = StructureRecord.canonicalName(name)
        return try await read { db in
            try db.query(
                "SELECT \(Self.structureColumns) FROM structures WHERE name = ?", [.text(name)], Self.structure(from:)
            ).first
        }
    }

    /// The structure with `id`, or nil.
    /// - Throws: ``StoreError``.
    public func structure(id: StructureRecord.ID) async throws(StoreError) -> StructureRecord? {
        try await read { db in
            try db.query(
                "SELECT \(Self.structureColumns) FROM structures WHERE id = ?", [.integer(id.rawValue)],
                Self.structure(from:)
            ).first
        }
    }

    /// Renames a structure.
    /// - Throws: ``StoreError/structureNotFound(_:)``, ``StoreError/duplicateStructureName(_:)``,
    ///   ``StoreError/invalidStructureName(_:reason:)``, or `.sqlite`.
    @discardableResult
    public func renameStructure(_ id: StructureRecord.ID, to name: String) async throws(StoreError) -> StructureRecord {
        let name = StructureRecord.canonicalName(name)
        return try await write { db, _ in
            var structure = try Self.existingStructure(id, in: db)
            try Self.checkName(name, unusedIn: db, except: id)
            try db.execute("UPDATE structures SET name = ? WHERE id = ?", [.text(name), .integer(id.rawValue)])
            structure.name = name
            return structure
        }
    }

    /// Deletes a structure and its memberships (the routers stay known). Its id is never reused.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func deleteStructure(_ id: StructureRecord.ID) async throws(StoreError) {
        try await write { db, _ in
            _ = try Self.existingStructure(id, in: db)
            try db.execute("DELETE FROM structures WHERE id = ?", [.integer(id.rawValue)])
        }
    }

    /// Sets what tbrd does when a router of structure `id` comes back empty (`off`, `ask` or `auto`).
    /// - Returns: the structure after the change.
    /// - Throws: ``StoreError/invalidArgument(_:)``, ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    @discardableResult
    public func setRecovery(_ recovery: String, of id: StructureRecord.ID) async throws(StoreError) -> StructureRecord {
        guard StructureSettings.recoveryModes.contains(recovery) else { throw .invalidArgument("recovery is off, ask or auto, not \(Quoted(recovery))") }
        return try await write { db, _ in
            var structure = try Self.existingStructure(id, in: db)
            try db.execute("UPDATE structures SET recovery = ? WHERE id = ?", [.text(recovery), .integer(id.rawValue)])
            structure.settings.recovery = recovery
            return structure
        }
    }

    /// Replaces a structure's settings (its desired policy; ``StructureSettings/recovery`` is kept: see
    /// ``setRecovery(_:of:)``).
    /// - Returns: the structure with its new settings.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    @discardableResult
    public func setSettings(_ settings: StructureSettings, of id: StructureRecord.ID) async throws(StoreError) -> StructureRecord {
        try await write { db, now in
            var structure = try Self.existingStructure(id, in: db)
            try db.execute(
                """
                UPDATE structures SET internet_access_option = ?, default_thread_network_id = ?,
                    settings_updated_at = ? WHERE id = ?
                """,
                [
                    SQLiteValue(settings.internetAccessOption), SQLiteValue(settings.defaultThreadNetworkID),
                    .real(now), .integer(id.rawValue),
                ])
            structure.settings = settings
            structure.settingsUpdatedAt = now
            return structure
        }
    }
}
