public import TBRFoundation

extension TBRStore {
    static let epskcColumns = """
        sequence, router_id, session_id, kind, reason, detail, activated_at, deactivated_at, valid_seconds,
        recorded_at, restore_record
        """

    /// Rows that pruning keeps whatever their age: the activation of an open session, i.e. an `activated`
    /// event that is its router's latest event.
    static let isOpenSessionActivation = """
        (kind = 'activated' AND sequence =
            (SELECT max(x.sequence) FROM epskc_events x WHERE x.router_id = epskc_events.router_id))
        """

    static func epskcEvent(from row: Row) throws(SQLiteError) -> EpskcJournalEntry {
        let kindName: String = try row.get(3)
        guard let kind = EpskcJournalEntry.Kind(rawValue: kindName) else {
            throw SQLiteError.mismatch("unknown ePSKc event kind \"\(kindName)\"", sql: nil)
        }
        return EpskcJournalEntry(
            sequence: try row.get(0), router: try routerID(row.get(1)), session: try row.get(2), kind: kind,
            reason: try row.get(4), detail: try row.get(5), activatedAt: try row.get(6), deactivatedAt: try row.get(7),
            validSeconds: try row.get(8), recordedAt: try row.get(9), restoreRecord: try row.get(10))
    }

    /// Appends an event to the ePSKc journal (and prunes it to ``retention``), in one transaction.
    ///
    /// Call it before announcing the event: once it returns, the event is on disk with its sequence.
    /// - Parameters:
    ///   - session: the caller's session identifier, to link an activation to its deactivation.
    ///   - kind: `.activated` takes no `reason` and no `deactivatedAt`; `.deactivated` needs both.
    ///   - validSeconds: the lifetime the router granted, when known (not negative).
    ///   - restoreRecord: for an activation only, opaque data to recover the session after a restart
    ///     (returned by ``latestOpenEpskcSession(router:)``); it must never contain the key.
    /// - Returns: the event's sequence number, greater than every sequence appended before.
    /// - Throws: ``StoreError/invalidArgument(_:)`` for an inconsistent event, or `.sqlite`.
    @discardableResult
    public func appendEpskcEvent(
        router: DeviceID, session: String? = nil, kind: EpskcJournalEntry.Kind, reason: String? = nil,
        detail: String? = nil, activatedAt: Double, deactivatedAt: Double? = nil, validSeconds: Int? = nil,
        restoreRecord: [UInt8]? = nil
    ) async throws(StoreError) -> Int64 {
        switch kind {
        case .activated:
            guard reason == nil, deactivatedAt == nil else {
                throw .invalidArgument("an ePSKc activation has no reason and no deactivation time")
            }
        case .deactivated:
            guard reason != nil, deactivatedAt != nil else {
                throw .invalidArgument("an ePSKc deactivation needs a reason and a deactivation time")
            }
            guard restoreRecord == nil else {
                throw .invalidArgument("only an ePSKc activation carries a restore record")
            }
        }
        if let validSeconds, validSeconds < 0 {
            throw .invalidArgument("an ePSKc key cannot be valid for \(validSeconds) seconds")
        }
        let retention = retention
        return try await write { db, now in
            try db.execute(
                """
                INSERT INTO epskc_events (
                    router_id, session_id, kind, reason, detail, activated_at, deactivated_at, valid_seconds,
                    recorded_at, restore_record)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(router.rawValue), SQLiteValue(session), .text(kind.rawValue), SQLiteValue(reason),
                    SQLiteValue(detail), .real(activatedAt), SQLiteValue(deactivatedAt), SQLiteValue(validSeconds),
                    .real(now), SQLiteValue(restoreRecord),
                ])
            let sequence = db.lastInsertRowID
            _ = try Self.prune(db, retention: retention, now: now)
            return sequence
        }
    }

    /// Journal events with a sequence above `sequence`, oldest first: what a watcher that saw
    /// `sequence` last has missed (pass 0 for everything still kept).
    /// - Parameters:
    ///   - router: only this router's events, when given.
    ///   - limit: at most this many events (1 or more); ask again from the last one for more.
    /// - Throws: ``StoreError/invalidArgument(_:)`` for a limit below 1, or `.sqlite`.
    public func epskcEvents(
        since sequence: Int64 = 0, router: DeviceID? = nil, limit: Int = 1000
    ) async throws(StoreError) -> [EpskcJournalEntry] {
        guard limit > 0 else { throw .invalidArgument("the limit must be at least 1 (got \(limit))") }
        return try await read { db in
            if let router {
                return try db.query(
                    """
                    SELECT \(Self.epskcColumns) FROM epskc_events WHERE sequence > ? AND router_id = ?
                    ORDER BY sequence LIMIT ?
                    """, [.integer(sequence), .text(router.rawValue), .integer(Int64(limit))], Self.epskcEvent(from:))
            }
            return try db.query(
                "SELECT \(Self.epskcColumns) FROM epskc_events WHERE sequence > ? ORDER BY sequence LIMIT ?",
                [.integer(sequence), .integer(Int64(limit))], Self.epskcEvent(from:))
        }
    }

    /// The activation of `router`'s open ePSKc session: its latest `activated` event when no
    /// `deactivated` event follows it. Used after a restart to recover the session and still emit its end.
    /// - Throws: ``StoreError``.
    public func latestOpenEpskcSession(router: DeviceID) async throws(StoreError) -> EpskcJournalEntry? {
        try await read { db in
            let latest = try db.query(
                "SELECT \(Self.epskcColumns) FROM epskc_events WHERE router_id = ? ORDER BY sequence DESC LIMIT 1",
                [.text(router.rawValue)], Self.epskcEvent(from:)
            ).first
            return latest?.kind == .activated ? latest : nil
        }
    }

    /// The activations of every open ePSKc session, oldest first (see ``latestOpenEpskcSession(router:)``).
    /// - Throws: ``StoreError``.
    public func openEpskcSessions() async throws(StoreError) -> [EpskcJournalEntry] {
        try await read { db in
            try db.query(
                "SELECT \(Self.epskcColumns) FROM epskc_events WHERE \(Self.isOpenSessionActivation) ORDER BY sequence",
                [], Self.epskcEvent(from:))
        }
    }

    /// The highest sequence ever assigned (0 before the first event), pruned or not: a watcher that
    /// starts now passes it to ``epskcEvents(since:router:limit:)`` later.
    /// - Throws: ``StoreError``.
    public func latestEpskcSequence() async throws(StoreError) -> Int64 {
        try await read { db in
            try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'epskc_events'", as: Int64.self) ?? 0
        }
    }

    /// Removes the events ``retention`` no longer keeps (by age, then by count), except the activations
    /// of open sessions. Sequences are never reused afterwards.
    /// - Returns: how many events were removed.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func pruneEpskcJournal() async throws(StoreError) -> Int {
        let retention = retention
        return try await write { db, now in try Self.prune(db, retention: retention, now: now) }
    }

    /// Prunes inside the caller's transaction.
    static func prune(_ db: Database, retention: JournalRetention, now: Double) throws(SQLiteError) -> Int {
        var removed = 0
        if let age = retention.maximumAge {
            let (seconds, attoseconds) = age.components
            let cutoff = now - (Double(seconds) + Double(attoseconds) / 1e18)
            try db.execute(
                "DELETE FROM epskc_events WHERE recorded_at < ? AND NOT \(isOpenSessionActivation)", [.real(cutoff)])
            removed += db.changes
        }
        if let count = retention.maximumCount {
            try db.execute(
                """
                DELETE FROM epskc_events
                WHERE sequence <= (SELECT sequence FROM epskc_events ORDER BY sequence DESC LIMIT 1 OFFSET ?)
                    AND NOT \(isOpenSessionActivation)
                """, [.integer(Int64(count))])
            removed += db.changes
        }
        return removed
    }
}
