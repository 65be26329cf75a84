public import TBRFoundation

extension TBRStore {
    static let routerColumns =
        "id, interface_name, border_agent_id, online, first_seen_at, last_seen_at, last_known, rest_url"

    static func knownRouter(from row: Row) throws(SQLiteError) -> KnownRouter {
        KnownRouter(
            id: try routerID(row.get(0)), interfaceName: try row.get(1), borderAgentID: try row.get(2),
            isOnline: try row.get(3), firstSeenAt: try row.get(4), lastSeenAt: try row.get(5), lastKnown: try row.get(6),
            restURL: try row.get(7))
    }

    static func requireKnownRouter(_ router: DeviceID, in db: Database) throws {
        let known: Int? = try db.scalar("SELECT 1 FROM routers WHERE id = ?", [.text(router.rawValue)])
        guard known != nil else { throw StoreError.routerNotFound(router) }
    }

    /// Records that `router` is online now: a new router is added, a known one is updated. A nil
    /// `interfaceName` or `borderAgentID` keeps the value already known.
    /// - Returns: the router as recorded.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func recordRouter(
        _ router: DeviceID, interfaceName: String? = nil, borderAgentID: String? = nil
    ) async throws(StoreError) -> KnownRouter {
        try await write { db, now in
            try db.execute(
                """
                INSERT INTO routers (id, interface_name, border_agent_id, online, first_seen_at, last_seen_at)
                VALUES (?, ?, ?, 1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    interface_name = coalesce(excluded.interface_name, interface_name),
                    border_agent_id = coalesce(excluded.border_agent_id, border_agent_id),
                    online = 1, last_seen_at = excluded.last_seen_at
                """,
                [.text(router.rawValue), SQLiteValue(interfaceName), SQLiteValue(borderAgentID), .real(now), .real(now)])
            return try db.query(
                "SELECT \(Self.routerColumns) FROM routers WHERE id = ?", [.text(router.rawValue)], Self.knownRouter(from:)
            )[0]
        }
    }

    /// Adds a border router on another host, reached through its otbr-agent's REST API at `restURL`
    /// (an admin's decision; it stays until ``forgetRouter(_:)``). It starts offline.
    /// - Returns: the router as recorded.
    /// - Throws: ``StoreError/routerAlreadyKnown(_:reason:)`` when a router has the id `router`, or the same
    ///   REST URL, or the same Border Agent ID; `.sqlite` otherwise.
    @discardableResult
    public func addRemoteRouter(_ router: DeviceID, restURL: String, borderAgentID: String) async throws(StoreError)
        -> KnownRouter
    {
        try await write { db, now in
            let clash = try db.query(
                "SELECT id, rest_url, border_agent_id FROM routers WHERE id = ? OR rest_url = ? OR border_agent_id = ? ORDER BY id",
                [.text(router.rawValue), .text(restURL), .text(borderAgentID)]
            ) { (row) throws(SQLiteError) -> (String, String?, String?) in (try row.get(0), try row.get(1), try row.get(2)) }
            if let (id, url, agent) = clash.first, let known = DeviceID(rawValue: id) {
                let reason =
                    id == router.rawValue ? "that id is taken"
                    : url == restURL ? "it is reached at the same URL" : "it has the same Border Agent ID \(agent ?? "")"
                throw StoreError.routerAlreadyKnown(known, reason: reason)
            }
            try db.execute(
                """
                INSERT INTO routers (id, interface_name, border_agent_id, online, first_seen_at, last_seen_at, rest_url)
                VALUES (?, NULL, ?, 0, ?, ?, ?)
                """,
                [.text(router.rawValue), .text(borderAgentID), .real(now), .real(now), .text(restURL)])
            return try db.query(
                "SELECT \(Self.routerColumns) FROM routers WHERE id = ?", [.text(router.rawValue)], Self.knownRouter(from:)
            )[0]
        }
    }

    /// Records that `router` went offline now; it stays known, with its memberships.
    /// - Throws: ``StoreError/routerNotFound(_:)`` or `.sqlite`.
    public func markRouterOffline(_ router: DeviceID) async throws(StoreError) {
        try await write { db, now in
            try db.execute(
                "UPDATE routers SET online = 0, last_seen_at = ? WHERE id = ?", [.real(now), .text(router.rawValue)])
            guard db.changes == 1 else { throw StoreError.routerNotFound(router) }
        }
    }

    /// Marks every router offline, without changing when they were last seen: at startup, before the
    /// routers on the bus are found again.
    /// - Throws: ``StoreError``.
    public func markAllRoutersOffline() async throws(StoreError) {
        try await write { db, _ in try db.execute("UPDATE routers SET online = 0 WHERE online = 1") }
    }

    /// Every router ever recorded, by id.
    /// - Throws: ``StoreError``.
    public func knownRouters() async throws(StoreError) -> [KnownRouter] {
        try await read { db in
            try db.query("SELECT \(Self.routerColumns) FROM routers ORDER BY id", [], Self.knownRouter(from:))
        }
    }

    /// The router `id`, or nil when it was never recorded.
    /// - Throws: ``StoreError``.
    public func knownRouter(_ id: DeviceID) async throws(StoreError) -> KnownRouter? {
        try await read { db in
            try db.query(
                "SELECT \(Self.routerColumns) FROM routers WHERE id = ?", [.text(id.rawValue)], Self.knownRouter(from:)
            ).first
        }
    }

    /// Forgets `router`: its membership and applied-policy record go too. Its ePSKc journal entries stay
    /// (the journal is history).
    /// - Throws: ``StoreError/routerNotFound(_:)`` or `.sqlite`.
    public func forgetRouter(_ router: DeviceID) async throws(StoreError) {
        try await write { db, _ in
            try db.execute("DELETE FROM routers WHERE id = ?", [.text(router.rawValue)])
            guard db.changes == 1 else { throw StoreError.routerNotFound(router) }
        }
    }

    /// Records what `router` last reported (an opaque record of the caller's), to be served while it is
    /// offline and after a restart.
    /// - Throws: ``StoreError/routerNotFound(_:)`` or `.sqlite`.
    public func setLastKnown(_ record: [UInt8], of router: DeviceID) async throws(StoreError) {
        try await write { db, now in
            try db.execute(
                "UPDATE routers SET last_known = ?, last_known_at = ? WHERE id = ?",
                [.blob(record), .real(now), .text(router.rawValue)])
            guard db.changes == 1 else { throw StoreError.routerNotFound(router) }
        }
    }
}
