import TBRFoundation

/// One token of the HTTPS API as the store keeps it: never the token, only what describes it.
public struct APITokenRecord: Sendable, Hashable {
    /// The name an admin gave it (the structure-name rules).
    public var name: String
    /// `read`, `epskc` or `admin`.
    public var scope: String
    /// When it was created, seconds since the Unix epoch.
    public var createdAt: Double
    /// When a request last authenticated with it; nil when never.
    public var lastUsedAt: Double?

    /// A record as given.
    public init(name: String, scope: String, createdAt: Double, lastUsedAt: Double?) {
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

extension TBRStore {
    /// The longest token name, in UTF-8 bytes.
    public static let maximumTokenNameLength = 64

    /// Records token `name` with `scope` by its SHA-256 `hash` (32 bytes); the token itself is never
    /// stored.
    /// - Throws: ``StoreError/invalidName(_:what:reason:)``, ``StoreError/duplicateToken(_:)``,
    ///   ``StoreError/invalidArgument(_:)`` (a scope or hash the table refuses), or `.sqlite`.
    public func addAPIToken(_ name: String, scope: String, hash: [UInt8]) async throws(StoreError) -> APITokenRecord {
        if let problem = NameRules.problem(with: name, maximumBytes: Self.maximumTokenNameLength) {
            throw .invalidName(name, what: "a token", reason: problem)
        }
        guard ["read", "epskc", "admin"].contains(scope) else { throw .invalidArgument("a token's scope is read, epskc or admin") }
        guard hash.count == 32 else { throw .invalidArgument("a token's hash is 32 bytes") }
        let name = NameRules.canonical(name)
        return try await write { db, now in
            let taken: Int64? = try db.scalar("SELECT 1 FROM api_tokens WHERE name = ?", [.text(name)])
            if taken != nil { throw StoreError.duplicateToken(name) }
            try db.execute(
                "INSERT INTO api_tokens (name, scope, hash, created_at) VALUES (?, ?, ?, ?)",
                [.text(name), .text(scope), .blob(hash), .real(now)])
            return APITokenRecord(name: name, scope: scope, createdAt: now, lastUsedAt: nil)
        }
    }

    /// Every token, by name.
    /// - Throws: `.sqlite`.
    public func apiTokens() async throws(StoreError) -> [APITokenRecord] {
        try await read { db in
            try db.query("SELECT name, scope, created_at, last_used_at FROM api_tokens ORDER BY name") { row throws(SQLiteError) in
                APITokenRecord(name: try row.get(0), scope: try row.get(1), createdAt: try row.get(2), lastUsedAt: try row.get(3))
            }
        }
    }

    /// The token whose SHA-256 is `hash`, marked as used now; nil when no token has it. The mark is
    /// written at most once a minute per token, so a busy client does not write the database at every
    /// request.
    /// - Throws: `.sqlite`.
    public func useAPIToken(hash: [UInt8]) async throws(StoreError) -> APITokenRecord? {
        try await write { db, now in
            let found = try db.query(
                "SELECT name, scope, created_at, last_used_at FROM api_tokens WHERE hash = ?", [.blob(hash)]
            ) { row throws(SQLiteError) in
                APITokenRecord(name: try row.get(0), scope: try row.get(1), createdAt: try row.get(2), lastUsedAt: try row.get(3))
            }.first
            guard var found else { return nil }
            if found.lastUsedAt.map({ now - $0 >= 60 }) ?? true {
                try db.execute("UPDATE api_tokens SET last_used_at = ? WHERE name = ?", [.real(now), .text(found.name)])
                found.lastUsedAt = now
            }
            return found
        }
    }

    /// Whether a token has the SHA-256 `hash` (read only: the HTTPS API's admission of a connection,
    /// before the request itself is authenticated with ``useAPIToken(hash:)``).
    /// - Throws: `.sqlite`.
    public func hasAPIToken(hash: [UInt8]) async throws(StoreError) -> Bool {
        try await read { db in
            try db.query("SELECT 1 FROM api_tokens WHERE hash = ?", [.blob(hash)]) { _ throws(SQLiteError) in true }.isEmpty == false
        }
    }

    /// Forgets token `name`: requests made with it are refused from now on.
    /// - Throws: ``StoreError/tokenNotFound(_:)`` or `.sqlite`.
    public func revokeAPIToken(_ name: String) async throws(StoreError) {
        let name = NameRules.canonical(name)
        try await write { db, _ in
            try db.execute("DELETE FROM api_tokens WHERE name = ?", [.text(name)])
            if db.changes == 0 { throw StoreError.tokenNotFound(name) }
        }
    }
}
