public import TBRFoundation

extension TBRStore {
    static func appliedPolicy(from row: Row, offset: Int = 0) throws(SQLiteError) -> AppliedPolicy {
        let option: String? = try row.get(offset)
        let stateName: String = try row.get(offset + 1)
        guard let state = AppliedPolicy.State(rawValue: stateName) else {
            throw SQLiteError.mismatch("unknown applied-policy state \"\(stateName)\"", sql: nil)
        }
        return AppliedPolicy(option: option, state: state, detail: try row.get(offset + 2), updatedAt: try row.get(offset + 3))
    }

    /// Records what the policy reconciler did on `router` (replacing the previous record).
    /// - Returns: the record as stored.
    /// - Throws: ``StoreError/routerNotFound(_:)``, ``StoreError/invalidArgument(_:)`` for a failed or
    ///   unsupported state without a detail, or `.sqlite`.
    @discardableResult
    public func recordAppliedPolicy(
        _ state: AppliedPolicy.State, detail: String = "", option: String?, router: DeviceID
    ) async throws(StoreError) -> AppliedPolicy {
        let record = AppliedPolicyRecord(router: router, option: option, state: state, detail: detail)
        return try await recordAppliedPolicies([record])[0]
    }

    /// Records what the policy reconciler did on several routers, in one transaction (all or nothing),
    /// and drops the records of routers that belong to no structure any more.
    /// - Returns: the records as stored, in order.
    /// - Throws: ``StoreError/routerNotFound(_:)``, ``StoreError/invalidArgument(_:)`` for a failed or
    ///   unsupported state without a detail, or `.sqlite`.
    @discardableResult
    public func recordAppliedPolicies(_ records: [AppliedPolicyRecord]) async throws(StoreError) -> [AppliedPolicy] {
        for r in records where (r.state == .failed || r.state == .unsupported) && r.detail.isEmpty {
            throw .invalidArgument("a \(r.state.rawValue) policy record for \(r.router) needs a detail saying why")
        }
        return try await write { db, now in
            var stored: [AppliedPolicy] = []
            for r in records {
                try Self.requireKnownRouter(r.router, in: db)
                try db.execute(
                    """
                    INSERT OR REPLACE INTO applied_policies (router_id, option, state, detail, updated_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                    [.text(r.router.rawValue), SQLiteValue(r.option), .text(r.state.rawValue), .text(r.detail), .real(now)])
                stored.append(AppliedPolicy(option: r.option, state: r.state, detail: r.detail, updatedAt: now))
            }
            try db.execute("DELETE FROM applied_policies WHERE router_id NOT IN (SELECT router_id FROM memberships)")
            return stored
        }
    }

    /// The reconciler's last record for `router`, or nil when it has none.
    /// - Throws: ``StoreError``.
    public func appliedPolicy(router: DeviceID) async throws(StoreError) -> AppliedPolicy? {
        try await read { db in
            try db.query(
                "SELECT option, state, detail, updated_at FROM applied_policies WHERE router_id = ?",
                [.text(router.rawValue)]
            ) { row throws(SQLiteError) in try Self.appliedPolicy(from: row) }.first
        }
    }

    /// The reconciler's records for the routers of the structure `id` (routers without one are absent).
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func appliedPolicies(inStructure id: StructureRecord.ID) async throws(StoreError) -> [DeviceID: AppliedPolicy] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            let rows = try db.query(
                """
                SELECT p.router_id, p.option, p.state, p.detail, p.updated_at
                FROM applied_policies p JOIN memberships m ON m.router_id = p.router_id
                WHERE m.structure_id = ?
                """, [.integer(id.rawValue)]
            ) { row throws(SQLiteError) in (try Self.routerID(row.get(0)), try Self.appliedPolicy(from: row, offset: 1)) }
            return Dictionary(rows, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Removes the reconciler's record for `router`, if any.
    /// - Throws: ``StoreError``.
    public func clearAppliedPolicy(router: DeviceID) async throws(StoreError) {
        try await write { db, _ in
            try db.execute("DELETE FROM applied_policies WHERE router_id = ?", [.text(router.rawValue)])
        }
    }
}
