import TBRFoundation

/// One sample of the health history (schema version 12): what changed about a router (its role,
/// partition, router and child counts) or a Matter node (its availability) at one moment. A field is nil
/// when it did not change.
public struct HealthSampleRecord: Sendable, Hashable {
    /// Seconds since the Unix epoch (whole seconds are kept). ``TBRStore/appendSample(_:sizeBound:)`` sets it
    /// from the store's clock, so that rows stay in time order: what a caller gives is not used.
    public var at: Double
    /// A router's id, or `node N` for a Matter node.
    public var subject: String
    /// A router's Thread role, or a node's `available`/`unavailable`.
    public var state: String?
    public var partition: UInt32?
    public var routers: Int?
    public var children: Int?

    public init(at: Double = 0, subject: String, state: String? = nil, partition: UInt32? = nil, routers: Int? = nil, children: Int? = nil) {
        self.at = at
        self.subject = subject
        self.state = state
        self.partition = partition
        self.routers = routers
        self.children = children
    }
}

/// The health monitor's history of samples (issue 49): appended when something changes, read from a
/// moment, pruned by age, and kept under a size bound by dropping the oldest.
extension TBRStore {
    /// How many samples are appended between two looks at the database's size.
    static let sizeCheckEvery = 64

    /// Appends `sample` (its time is the store's clock now). When the database's used pages pass
    /// `sizeBound` bytes, the oldest tenth of the samples go, so the history never makes the file grow
    /// past it; a full disk fails this call and leaves everything else as it was.
    /// - Throws: `.sqlite`.
    public func appendSample(_ sample: HealthSampleRecord, sizeBound: Int) async throws(StoreError) {
        try await write { db, now in
            try db.execute("INSERT OR IGNORE INTO health_subjects (name) VALUES (?)", [.text(sample.subject)])
            let subject = try db.scalar("SELECT id FROM health_subjects WHERE name = ?", [.text(sample.subject)], as: Int64.self) ?? 0
            try db.execute(
                "INSERT INTO health_samples (at, subject, state, partition, routers, children) VALUES (?, ?, ?, ?, ?, ?)",
                [.integer(Int64(now.rounded(.down))), .integer(subject), sample.state.map { .text($0) } ?? .null,
                 sample.partition.map { .integer(Int64($0)) } ?? .null, sample.routers.map { .integer(Int64($0)) } ?? .null,
                 sample.children.map { .integer(Int64($0)) } ?? .null])
            guard db.lastInsertRowID % Int64(Self.sizeCheckEvery) == 0 else { return }
            try Self.boundSamples(db, sizeBound: sizeBound)
        }
    }

    /// Drops the oldest tenth of the samples while the used pages pass `sizeBound` bytes.
    static func boundSamples(_ db: Database, sizeBound: Int) throws(SQLiteError) {
        while try usedBytes(db) > sizeBound {
            guard let first = try db.scalar("SELECT min(rowid) FROM health_samples", as: Int64.self),
                let last = try db.scalar("SELECT max(rowid) FROM health_samples", as: Int64.self), last > first
            else { return }
            try db.execute("DELETE FROM health_samples WHERE rowid < ?", [.integer(first + max(1, (last - first) / 10))])
        }
    }

    /// The samples taken at or after `since`, of `subject` only when given, oldest first.
    /// - Throws: `.sqlite`.
    public func samples(since: Double, subject: String?) async throws(StoreError) -> [HealthSampleRecord] {
        try await read { db in
            var sql = """
                SELECT s.at, n.name, s.state, s.partition, s.routers, s.children FROM health_samples s
                JOIN health_subjects n ON n.id = s.subject
                WHERE s.rowid >= coalesce((SELECT rowid FROM health_samples WHERE at >= ? ORDER BY rowid LIMIT 1), 1 << 62)
                """
            var arguments: [SQLiteValue] = [.integer(Int64(since.rounded(.down)))]
            if let subject {
                sql += " AND n.name = ?"
                arguments.append(.text(subject))
            }
            return try db.query(sql + " ORDER BY s.rowid", arguments) { row throws(SQLiteError) in
                let partition = try row.get(3, as: Int64?.self)
                let routers = try row.get(4, as: Int64?.self)
                let children = try row.get(5, as: Int64?.self)
                return HealthSampleRecord(
                    at: Double(try row.get(0, as: Int64.self)), subject: try row.get(1, as: String.self), state: try row.get(2, as: String?.self), partition: partition.map { UInt32(truncatingIfNeeded: $0) },
                    routers: routers.map { Int($0) }, children: children.map { Int($0) })
            }
        }
    }

    /// Removes the samples taken before `before` (seconds since the epoch).
    /// - Returns: how many were removed.
    /// - Throws: `.sqlite`.
    @discardableResult
    public func pruneSamples(before: Double) async throws(StoreError) -> Int {
        try await write { db, _ in
            try db.execute(
                "DELETE FROM health_samples WHERE rowid < coalesce((SELECT rowid FROM health_samples WHERE at >= ? ORDER BY rowid LIMIT 1), 1 << 62)",
                [.integer(Int64(before.rounded(.down)))])
            return db.changes
        }
    }

    /// The bytes of the database's pages in use (the file may hold free pages beyond them).
    /// - Throws: `.sqlite`.
    public func usedBytes() async throws(StoreError) -> Int {
        try await read { db in try Self.usedBytes(db) }
    }

    static func usedBytes(_ db: Database) throws(SQLiteError) -> Int {
        let pages = try db.scalar("PRAGMA page_count", as: Int.self) ?? 0
        let free = try db.scalar("PRAGMA freelist_count", as: Int.self) ?? 0
        return (pages - free) * (try db.scalar("PRAGMA page_size", as: Int.self) ?? 4096)
    }
}
