/// Each structure's migration or channel change (`network_migrations`, schema version 8): an opaque body
/// the daemon writes (the plan and every router's outcome) and the lock that lets one run at a time.
extension TBRStore {
    /// A structure's stored migration.
    public struct StoredNetworkMigration: Sendable, Equatable {
        public var structure: StructureRecord.ID
        public var body: String
        /// Whether it still runs (the structure's migration lock is held).
        public var running: Bool

        public init(structure: StructureRecord.ID, body: String, running: Bool) {
            self.structure = structure
            self.body = body
            self.running = running
        }
    }

    /// Structure `id`'s last migration, running or not; nil when it never had one.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func networkMigration(of id: StructureRecord.ID) async throws(StoreError) -> StoredNetworkMigration? {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            return try Self.migrationRows("WHERE structure_id = ?", [.integer(id.rawValue)], in: db).first
        }
    }

    /// Every migration still running, for tbrd to pick up again at start.
    public func runningNetworkMigrations() async throws(StoreError) -> [StoredNetworkMigration] {
        try await read { db in try Self.migrationRows("WHERE running = 1", [], in: db) }
    }

    /// Takes structure `id`'s migration lock and stores `body` as its running migration, in one
    /// transaction: two callers cannot both take it.
    /// - Returns: nil when taken; the running migration's body when another holds the lock (nothing stored).
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func beginNetworkMigration(_ body: String, in id: StructureRecord.ID) async throws(StoreError) -> String? {
        try await write { db, now in
            _ = try Self.existingStructure(id, in: db)
            if let running = try Self.migrationRows("WHERE structure_id = ? AND running = 1", [.integer(id.rawValue)], in: db).first {
                return running.body
            }
            try db.execute(
                """
                INSERT INTO network_migrations (structure_id, body, running, updated_at) VALUES (?1, ?2, 1, ?3)
                ON CONFLICT (structure_id) DO UPDATE SET body = excluded.body, running = 1, updated_at = excluded.updated_at
                """, [.integer(id.rawValue), .text(body), .real(now)])
            return nil
        }
    }

    /// Replaces structure `id`'s migration with `body`; `running` false releases the lock.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func updateNetworkMigration(_ body: String, running: Bool, in id: StructureRecord.ID) async throws(StoreError) {
        try await write { db, now in
            _ = try Self.existingStructure(id, in: db)
            try db.execute(
                """
                INSERT INTO network_migrations (structure_id, body, running, updated_at) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (structure_id) DO UPDATE SET body = excluded.body, running = excluded.running,
                    updated_at = excluded.updated_at
                """, [.integer(id.rawValue), .text(body), .integer(running ? 1 : 0), .real(now)])
        }
    }

    private static func migrationRows(_ condition: String, _ arguments: [SQLiteValue], in db: Database) throws -> [StoredNetworkMigration] {
        try db.query("SELECT structure_id, body, running FROM network_migrations \(condition) ORDER BY structure_id", arguments) { row throws(SQLiteError) in
            let running: Int64 = try row.get(2)
            return StoredNetworkMigration(structure: StructureRecord.ID(rawValue: try row.get(0)), body: try row.get(1), running: running == 1)
        }
    }
}
