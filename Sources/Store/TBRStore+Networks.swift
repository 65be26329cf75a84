import TBRFoundation

/// The network directory of each structure (`thread_networks`, schema version 7).
extension TBRStore {
    /// The networks structure `id` knows, by Extended PAN ID.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    public func networks(inStructure id: StructureRecord.ID) async throws(StoreError) -> [ThreadNetworkRecord] {
        try await read { db in
            _ = try Self.existingStructure(id, in: db)
            return try Self.networkRows(id, nil, in: db)
        }
    }

    /// Records what was learned of a network in structure `id`: a new entry, or the known one brought up to
    /// date. Credentials are kept once held (a later sighting without them keeps them); a sighting with
    /// credentials also takes over the entry's source. `seenAt` nil: now.
    /// - Returns: the entry after the change.
    /// - Throws: ``StoreError/invalidArgument(_:)`` for an Extended PAN ID that is not 16 hex digits,
    ///   ``StoreError/structureNotFound(_:)``, or `.sqlite`.
    @discardableResult
    public func recordNetwork(_ network: ThreadNetworkRecord, in id: StructureRecord.ID, seenAt: Double? = nil) async throws(StoreError)
        -> ThreadNetworkRecord
    {
        let xpan = network.extendedPANID.lowercased()
        guard xpan.count == 16, xpan.allSatisfy(\.isHexDigit) else {
            throw .invalidArgument("\(Quoted(network.extendedPANID)) is not an Extended PAN ID (16 hex digits)")
        }
        return try await write { db, now in
            _ = try Self.existingStructure(id, in: db)
            let at = seenAt ?? now
            let mdnsAt: SQLiteValue = network.source == .mdns ? .real(at) : .null
            let channel: SQLiteValue = network.channel.map { .integer(Int64($0)) } ?? .null
            let timestamp: SQLiteValue = network.activeTimestamp.map { .integer(Int64(bitPattern: $0)) } ?? .null
            let dataset: SQLiteValue = network.dataset.map { .blob($0) } ?? .null
            try db.execute(
                """
                INSERT INTO thread_networks (structure_id, ext_pan_id, network_name, channel, active_timestamp, dataset,
                    source, source_detail, first_seen_at, last_seen_at, mdns_seen_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10)
                ON CONFLICT (structure_id, ext_pan_id) DO UPDATE SET
                    network_name = excluded.network_name,
                    channel = coalesce(excluded.channel, channel),
                    active_timestamp = coalesce(excluded.active_timestamp, active_timestamp),
                    dataset = coalesce(excluded.dataset, dataset),
                    source = CASE WHEN excluded.dataset IS NOT NULL OR dataset IS NULL THEN excluded.source ELSE source END,
                    source_detail = CASE WHEN excluded.dataset IS NOT NULL OR dataset IS NULL THEN excluded.source_detail
                                    ELSE source_detail END,
                    last_seen_at = max(last_seen_at, excluded.last_seen_at),
                    mdns_seen_at = coalesce(excluded.mdns_seen_at, mdns_seen_at)
                """,
                [.integer(id.rawValue), .text(xpan), .text(network.networkName), channel, timestamp, dataset,
                 .text(network.source.rawValue), .text(network.sourceDetail), .real(at), mdnsAt])
            return try Self.networkRows(id, xpan, in: db)[0]
        }
    }

    /// Removes network `extendedPANID` from structure `id`'s directory, its credentials with it.
    /// - Returns: whether it was there.
    /// - Throws: ``StoreError/structureNotFound(_:)`` or `.sqlite`.
    @discardableResult
    public func forgetNetwork(_ extendedPANID: String, in id: StructureRecord.ID) async throws(StoreError) -> Bool {
        try await write { db, _ in
            _ = try Self.existingStructure(id, in: db)
            let key: [SQLiteValue] = [.integer(id.rawValue), .text(extendedPANID.lowercased())]
            let found: Int64? = try db.scalar("SELECT 1 FROM thread_networks WHERE structure_id = ? AND ext_pan_id = ?", key)
            guard found != nil else { return false }
            try db.execute("DELETE FROM thread_networks WHERE structure_id = ? AND ext_pan_id = ?", key)
            return true
        }
    }

    static func networkRows(_ id: StructureRecord.ID, _ xpan: String?, in db: Database) throws -> [ThreadNetworkRecord] {
        var sql = """
            SELECT ext_pan_id, network_name, channel, active_timestamp, dataset, source, source_detail, first_seen_at,
                   last_seen_at, mdns_seen_at
            FROM thread_networks WHERE structure_id = ?
            """
        var arguments: [SQLiteValue] = [.integer(id.rawValue)]
        if let xpan {
            sql += " AND ext_pan_id = ?"
            arguments.append(.text(xpan))
        }
        sql += " ORDER BY ext_pan_id"
        return try db.query(sql, arguments) { row throws(SQLiteError) in
            let timestamp: Int64? = try row.get(3)
            let source: String = try row.get(5)
            return ThreadNetworkRecord(
                extendedPANID: try row.get(0), networkName: try row.get(1), channel: (try row.get(2) as Int64?).map { Int($0) },
                activeTimestamp: timestamp.map { UInt64(bitPattern: $0) }, dataset: try row.get(4),
                source: ThreadNetworkRecord.Source(rawValue: source) ?? .added, sourceDetail: try row.get(6),
                firstSeenAt: try row.get(7), lastSeenAt: try row.get(8), mdnsSeenAt: try row.get(9))
        }
    }
}
