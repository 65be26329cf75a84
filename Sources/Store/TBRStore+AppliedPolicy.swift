extension TBRStore {
    static func appliedPolicy(from row: Row, offset: Int = 0) throws(SQLiteError) -> AppliedPolicy {
        let option: String? = try row.get(offset)
        let stateName: String = try row.get(offset + 1)
        let error: String? = try row.get(offset + 2)
        let state: AppliedPolicy.State
        switch stateName {
        case "applied": state = .applied
        case "pending": state = .pending
        case "failed": state = .failed(error ?? "")
        default: throw SQLiteError.mismatch("unknown applied-policy state \"\(stateName)\"", sql: nil)
        }
        return AppliedPolicy(option: option, state: state, updatedAt: try row.get(offset + 3))
    }

    /// Records what the policy reconciler did on `router` (replacing the previous record).
    /// - Returns: the record as stored.
    /// - Throws: ``StoreError/routerNotFound(_:)`` or `.sqlite`.
    @discardableResult
    public func recordAppliedPolicy(
        _ state: AppliedPolicy.State, option: String?, router: RouterID
    ) async throws(StoreError) -> AppliedPolicy {
        try await write { db, now in
            try Self.requireKnownRouter(router, in: db)
            var error: String?
            if case .failed(let message) = state { error = message }
            try db.execute(
                """
                INSERT OR REPLACE INTO applied_policies (router_id, option, state, error, updated_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [.text(router.rawValue), SQLiteValue(option), .text(state.storedName), SQLiteValue(error), .real(now)])
            return AppliedPolicy(option: option, state: state, updatedAt: now)
        }
    }

    /// The reconciler's last record for `router`, or nil when it has none.
    /// - Throws: ``StoreError``.
    public func appliedPolicy(router: RouterID) async throws(StoreError) -> AppliedPolicy? {
        try await read { db in
            try db.query(
                "SELECT option, state, error, updated_at FROM applied_policies WHERE router_id = ?",
                [.text(router.rawValue)]
            ) { row throws(SQLiteError) in try Self.appliedPolicy(from: row) }.first
        }
    }

    /// The reconciler's records for the routers of the structure `id` (routers without one are absent).
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func appliedPolicies(inStructure id: StructureRecord.ID) async throws(StoreError) -> [RouterID: AppliedPolicy] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            let rows = try db.query(
                """
                SELECT p.router_id, p.option, p.state, p.error, p.updated_at
                FROM applied_policies p JOIN memberships m ON m.router_id = p.router_id
                WHERE m.structure_id = ?
                """, [.integer(id.rawValue)]
            ) { row throws(SQLiteError) in (try Self.routerID(row.get(0)), try Self.appliedPolicy(from: row, offset: 1)) }
            return Dictionary(rows, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Removes the reconciler's record for `router`, if any.
    /// - Throws: ``StoreError``.
    public func clearAppliedPolicy(router: RouterID) async throws(StoreError) {
        try await write { db, _ in
            try db.execute("DELETE FROM applied_policies WHERE router_id = ?", [.text(router.rawValue)])
        }
    }
}
