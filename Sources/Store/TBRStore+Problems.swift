import TBRFoundation

/// A problem as the store keeps it (schema version 11).
public struct ProblemRecord: Sendable, Hashable {
    public var id: Int64
    public var subject: String
    public var check: String
    public var message: String
    public var fix: String
    /// Seconds since the Unix epoch.
    public var openedAt: Double
    public var closedAt: Double?
}

/// The health monitor's problems (issue 49): opened, closed, listed, and the closed ones pruned by age.
extension TBRStore {
    static let problemColumns = "id, subject, check_id, message, fix, opened_at, closed_at"

    static func problem(from row: Row) throws(SQLiteError) -> ProblemRecord {
        ProblemRecord(
            id: try row.get(0), subject: try row.get(1), check: try row.get(2), message: try row.get(3), fix: try row.get(4),
            openedAt: try row.get(5), closedAt: try row.get(6))
    }

    /// Opens a problem of `check` about `subject`, or answers the one already open (its first message kept).
    /// - Returns: the open problem, and whether it was opened now.
    /// - Throws: `.sqlite`.
    public func openProblem(subject: String, check: String, message: String, fix: String) async throws(StoreError)
        -> (problem: ProblemRecord, opened: Bool)
    {
        try await write { db, now in
            let open = try db.query(
                "SELECT \(Self.problemColumns) FROM problems WHERE subject = ? AND check_id = ? AND closed_at IS NULL",
                [.text(subject), .text(check)], Self.problem(from:))
            if let found = open.first { return (found, false) }
            try db.execute(
                "INSERT INTO problems (subject, check_id, message, fix, opened_at) VALUES (?, ?, ?, ?, ?)",
                [.text(subject), .text(check), .text(message), .text(fix), .real(now)])
            return (ProblemRecord(id: db.lastInsertRowID, subject: subject, check: check, message: message, fix: fix, openedAt: now, closedAt: nil), true)
        }
    }

    /// Closes the open problem of `check` about `subject`.
    /// - Returns: the problem closed, or nil when none was open.
    /// - Throws: `.sqlite`.
    public func closeProblem(subject: String, check: String) async throws(StoreError) -> ProblemRecord? {
        try await write { db, now in
            let open = try db.query(
                "SELECT \(Self.problemColumns) FROM problems WHERE subject = ? AND check_id = ? AND closed_at IS NULL",
                [.text(subject), .text(check)], Self.problem(from:))
            guard var found = open.first else { return nil }
            let at = max(now, found.openedAt)
            try db.execute("UPDATE problems SET closed_at = ? WHERE id = ?", [.real(at), .integer(found.id)])
            found.closedAt = at
            return found
        }
    }

    /// The open problems, oldest first.
    /// - Throws: `.sqlite`.
    public func openProblems() async throws(StoreError) -> [ProblemRecord] {
        try await read { db in
            try db.query("SELECT \(Self.problemColumns) FROM problems WHERE closed_at IS NULL ORDER BY id", [], Self.problem(from:))
        }
    }

    /// Every problem open at some moment since `since` (opened since, closed since, or still open), of
    /// `subject` only when given, oldest first.
    /// - Throws: `.sqlite`.
    public func problems(since: Double, subject: String?) async throws(StoreError) -> [ProblemRecord] {
        try await read { db in
            var sql = "SELECT \(Self.problemColumns) FROM problems WHERE (closed_at IS NULL OR closed_at >= ? OR opened_at >= ?)"
            var arguments: [SQLiteValue] = [.real(since), .real(since)]
            if let subject {
                sql += " AND subject = ?"
                arguments.append(.text(subject))
            }
            return try db.query(sql + " ORDER BY id", arguments, Self.problem(from:))
        }
    }

    /// Removes the problems closed before `before` (seconds since the epoch); open ones always stay.
    /// - Returns: how many were removed.
    /// - Throws: `.sqlite`.
    @discardableResult
    public func pruneProblems(closedBefore before: Double) async throws(StoreError) -> Int {
        try await write { db, _ in
            try db.execute("DELETE FROM problems WHERE closed_at IS NOT NULL AND closed_at < ?", [.real(before)])
            return db.changes
        }
    }
}
