package import TBRBackup
package import TBRFoundation

/// What a backup takes from the store and gives back to it (issue 48): one read transaction makes the
/// snapshot, one write transaction restores it, so a restore is whole or nothing.
extension TBRStore {
    /// The home's state as a backup holds it (routers without their Active datasets, which only their
    /// agents know; the caller adds them), from one consistent snapshot.
    /// - Throws: `.sqlite`.
    package func backupState() async throws(StoreError) -> (structures: [BackupContents.Structure], routers: [BackupContents.Router], tokens: [BackupContents.Token]) {
        try await read { db in
            let structures = try db.query("SELECT \(Self.structureColumns) FROM structures ORDER BY id", [], Self.structure(from:))
            var out: [BackupContents.Structure] = []
            for s in structures {
                let routers = try db.query("SELECT router_id FROM memberships WHERE structure_id = ? ORDER BY router_id", [.integer(s.id.rawValue)]) {
                    row throws(SQLiteError) in try row.get(0, as: String.self)
                }
                let networks = try Self.networkRows(s.id, nil, in: db).map {
                    BackupContents.Network(
                        extPanId: $0.extendedPANID, name: $0.networkName, channel: $0.channel, activeTimestamp: $0.activeTimestamp,
                        dataset: $0.dataset.map(Hex.encode), source: $0.source.rawValue, sourceDetail: $0.sourceDetail, firstSeenAt: $0.firstSeenAt,
                        lastSeenAt: $0.lastSeenAt, mdnsSeenAt: $0.mdnsSeenAt)
                }
                let nodes = try db.query(
                    "SELECT \(Self.matterNodeColumns) FROM matter_nodes WHERE structure_id = ? ORDER BY node_id", [.integer(s.id.rawValue)],
                    Self.matterNode(from:)
                ).map {
                    BackupContents.MatterNode(
                        nodeId: $0.nodeID, vendorId: Int($0.vendorID), productId: Int($0.productID), commissionedAt: $0.commissionedAt,
                        sessionId: $0.sessionID, payloadId: $0.payloadID, extPanId: $0.extPanID, backend: $0.backend, name: $0.name, room: $0.room)
                }
                out.append(
                    BackupContents.Structure(
                        id: s.id.rawValue, name: s.name, createdAt: s.createdAt, internetAccessOption: s.settings.internetAccessOption,
                        preferredNetwork: s.settings.defaultThreadNetworkID, settingsUpdatedAt: s.settingsUpdatedAt, recovery: s.settings.recovery,
                        routers: routers, rooms: try Self.roomNames(s.id, in: db), networks: networks, matterNodes: nodes))
            }
            let routers = try db.query("SELECT \(Self.routerColumns) FROM routers ORDER BY id", [], Self.knownRouter(from:)).map {
                BackupContents.Router(
                    id: $0.id.rawValue, interface: $0.interfaceName, restURL: $0.restURL, borderAgentId: $0.borderAgentID, firstSeenAt: $0.firstSeenAt,
                    activeDataset: nil)
            }
            let tokens = try db.query("SELECT name, scope, hash, created_at, last_used_at FROM api_tokens ORDER BY name") { row throws(SQLiteError) in
                BackupContents.Token(
                    name: try row.get(0), scope: try row.get(1), hash: Hex.encode(try row.get(2, as: [UInt8].self)), createdAt: try row.get(3),
                    lastUsedAt: try row.get(4))
            }
            return (out, routers, tokens)
        }
    }

    /// What the store held before a restore, for the caller to announce what went away.
    package struct Replaced: Sendable {
        package var structures: [StructureRecord.ID]
        package var remoteRouters: [DeviceID]
    }

    /// Whether tbrd holds anything a restore would replace: a structure, a border router on another host or
    /// an API token (routers on this host's bus are found again by themselves and are not counted).
    /// - Throws: `.sqlite`.
    package func holdsHomeState() async throws(StoreError) -> Bool {
        try await read { db in
            let any: Int64? = try db.scalar(
                """
                SELECT 1 WHERE EXISTS (SELECT 1 FROM structures) OR EXISTS (SELECT 1 FROM api_tokens)
                    OR EXISTS (SELECT 1 FROM routers WHERE rest_url IS NOT NULL)
                """)
            return any != nil
        }
    }

    /// Puts `contents` in place of the home's state, in one transaction: every structure (with its
    /// memberships, rooms, directory and Matter nodes), every API token and every border router on another
    /// host the backup does not hold are removed; what the backup holds is written with its ids and times.
    /// Routers on this host's bus stay known (their rows are updated). `replacing` false: refused unless the
    /// store holds no home state (``holdsHomeState()``).
    /// - Returns: what was removed.
    /// - Throws: ``StoreError/invalidArgument(_:)`` naming what the backup holds that the store refuses;
    ///   nothing is changed then.
    package func restore(_ contents: BackupContents, replacing: Bool) async throws(StoreError) -> Replaced {
        let rows = try RestoreRows(contents)
        return try await write { db, now in
            let removedStructures = try db.query("SELECT id FROM structures", []) { row throws(SQLiteError) in
                StructureRecord.ID(rawValue: try row.get(0))
            }
            let remote = try db.query("SELECT id FROM routers WHERE rest_url IS NOT NULL", []) { row throws(SQLiteError) in
                try Self.routerID(try row.get(0))
            }
            let tokens: Int64? = try db.scalar("SELECT 1 FROM api_tokens LIMIT 1")
            if !replacing, !removedStructures.isEmpty || !remote.isEmpty || tokens != nil {
                throw StoreError.invalidArgument("this tbrd already holds structures, remote border routers or API tokens")
            }
            try db.execute("DELETE FROM structures")
            try db.execute("DELETE FROM api_tokens")
            let kept = Set(contents.routers.map(\.id))
            let gone = remote.filter { !kept.contains($0.rawValue) }
            for id in gone { try db.execute("DELETE FROM routers WHERE id = ?", [.text(id.rawValue)]) }
            try rows.write(into: db, now: now)
            return Replaced(structures: removedStructures, remoteRouters: gone)
        }
    }
}

/// A backup's contents checked and turned into the values the tables take, before any transaction.
private struct RestoreRows: Sendable {
    let contents: BackupContents
    let datasets: [String: [UInt8]]
    let hashes: [String: [UInt8]]

    init(_ contents: BackupContents) throws(StoreError) {
        self.contents = contents
        var datasets: [String: [UInt8]] = [:]
        var hashes: [String: [UInt8]] = [:]
        for s in contents.structures {
            if let problem = StructureRecord.problem(withName: s.name) { throw .invalidStructureName(s.name, reason: problem) }
            guard StructureSettings.recoveryModes.contains(s.recovery) else { throw .invalidArgument("structure \(Quoted(s.name)) has recovery \(Quoted(s.recovery))") }
            for n in s.networks {
                guard n.extPanId.count == 16, n.extPanId.allSatisfy(\.isHexDigit) else {
                    throw .invalidArgument("structure \(Quoted(s.name)) has a network whose Extended PAN ID is \(Quoted(n.extPanId))")
                }
                guard ThreadNetworkRecord.Source(rawValue: n.source) != nil else { throw .invalidArgument("network \(n.extPanId) has source \(Quoted(n.source))") }
                if let hex = n.dataset {
                    guard let bytes = try? Hex.decode(hex) else { throw .invalidArgument("network \(n.extPanId)'s dataset is not hex") }
                    datasets["\(s.id)/\(n.extPanId)"] = bytes
                }
            }
            for node in s.matterNodes where !(0...0xFFFF).contains(node.vendorId) || !(0...0xFFFF).contains(node.productId) {
                throw .invalidArgument("Matter node \(node.nodeId) has an impossible vendor or product id")
            }
        }
        for t in contents.tokens {
            guard let bytes = try? Hex.decode(t.hash), bytes.count == 32 else { throw .invalidArgument("token \(Quoted(t.name))'s hash is not 32 bytes of hex") }
            hashes[t.name] = bytes
        }
        for r in contents.routers where DeviceID(rawValue: r.id) == nil {
            throw .invalidArgument("a router's id is \(Quoted(r.id))")
        }
        self.datasets = datasets
        self.hashes = hashes
    }

    func write(into db: Database, now: Double) throws {
        for r in contents.routers {
            try db.execute(
                """
                INSERT INTO routers (id, interface_name, border_agent_id, online, first_seen_at, last_seen_at, rest_url)
                VALUES (?1, ?2, ?3, 0, ?4, ?4, ?5)
                ON CONFLICT (id) DO UPDATE SET
                    interface_name = coalesce(excluded.interface_name, interface_name),
                    rest_url = excluded.rest_url,
                    border_agent_id = coalesce(border_agent_id, excluded.border_agent_id)
                """,
                [.text(r.id), SQLiteValue(r.interface), SQLiteValue(r.borderAgentId), .real(r.firstSeenAt), SQLiteValue(r.restURL)])
        }
        for s in contents.structures {
            try db.execute(
                """
                INSERT INTO structures (id, name, created_at, internet_access_option, default_thread_network_id, settings_updated_at, recovery)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(s.id), .text(StructureRecord.canonicalName(s.name)), .real(s.createdAt), SQLiteValue(s.internetAccessOption),
                    SQLiteValue(s.preferredNetwork), SQLiteValue(s.settingsUpdatedAt), .text(s.recovery),
                ])
            for router in s.routers {
                try db.execute("INSERT INTO memberships (router_id, structure_id, added_at) VALUES (?, ?, ?)", [.text(router), .integer(s.id), .real(now)])
            }
            for room in s.rooms {
                try db.execute("INSERT INTO rooms (structure_id, name, created_at) VALUES (?, ?, ?)", [.integer(s.id), .text(room), .real(now)])
            }
            for n in s.networks {
                try db.execute(
                    """
                    INSERT INTO thread_networks (structure_id, ext_pan_id, network_name, channel, active_timestamp, dataset, source, source_detail,
                        first_seen_at, last_seen_at, mdns_seen_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(s.id), .text(n.extPanId.lowercased()), .text(n.name), n.channel.map { .integer(Int64($0)) } ?? .null,
                        n.activeTimestamp.map { .integer(Int64(bitPattern: $0)) } ?? .null, datasets["\(s.id)/\(n.extPanId)"].map { .blob($0) } ?? .null,
                        .text(n.source), .text(n.sourceDetail), .real(n.firstSeenAt), .real(n.lastSeenAt), SQLiteValue(n.mdnsSeenAt),
                    ])
            }
            for node in s.matterNodes {
                try db.execute(
                    "INSERT INTO matter_nodes (\(TBRStore.matterNodeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(Int64(bitPattern: node.nodeId)), .integer(s.id), .integer(Int64(node.vendorId)), .integer(Int64(node.productId)),
                        .real(node.commissionedAt), SQLiteValue(node.sessionId), SQLiteValue(node.payloadId), SQLiteValue(node.extPanId),
                        .text(node.backend), SQLiteValue(node.name), SQLiteValue(node.room),
                    ])
            }
        }
        for t in contents.tokens {
            try db.execute(
                "INSERT INTO api_tokens (name, scope, hash, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
                [.text(t.name), .text(t.scope), .blob(hashes[t.name] ?? []), .real(t.createdAt), SQLiteValue(t.lastUsedAt)])
        }
    }
}
