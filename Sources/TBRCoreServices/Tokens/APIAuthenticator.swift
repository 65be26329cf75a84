package import TBRCore
import FoundationEssentials
import MeshCoP
package import Store
package import TBRFoundation

/// Checks the HTTPS API's bearer tokens against their hashes in the store, and slows down a client
/// address that keeps failing: after ``freeFailures`` failures within ``window``, each further failure
/// is answered only after a delay that doubles, up to ``maximumDelay``. A success clears the address.
/// Tokens are never logged; a failure is logged with the client's address only.
package actor APIAuthenticator: TokenCore {
    private let store: TBRStore
    private let logger: Logger
    private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
    package static let freeFailures = 5
    package static let window: Duration = .seconds(600)
    package static let maximumDelay: Duration = .seconds(30)
    /// The prefix of every token tbrd makes.
    package static let tokenPrefix = "tbrd_"

    package init(store: TBRStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The principal of `authorization` (the `Authorization` header); nil when it names no valid token,
    /// after the delay `client`'s failures have earned.
    package func authenticate(_ authorization: String?, client: String) async -> APIPrincipal? {
        guard let hash = Self.tokenHash(authorization) else { return await failed(client) }
        let record: APITokenRecord?
        do { record = try await store.useAPIToken(hash: hash) } catch {
            logger.error("the API's tokens cannot be read", [("error", "\(error)")])
            return await failed(client)
        }
        guard let record, let scope = APIScope(rawValue: record.scope) else { return await failed(client) }
        failures[client] = nil
        return APIPrincipal(tokenName: record.name, scope: scope)
    }

    /// Whether `authorization` names a valid token, with no delay and no failure counted: the server's
    /// admission of a connection (``HTTPServer/Admission``), before its body is read. Not an
    /// actor method: it reads the store only, and runs for every head.
    package nonisolated func admits(_ authorization: String?) async -> Bool {
        guard let hash = Self.tokenHash(authorization) else { return false }
        return (try? await store.hasAPIToken(hash: hash)) ?? false
    }

    /// The SHA-256 of the token `authorization` carries (`Bearer tbrd_…`); nil when it carries none.
    private static func tokenHash(_ authorization: String?) -> [UInt8]? {
        let parts = authorization?.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true) ?? []
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = String(parts[1])
        guard token.hasPrefix(tokenPrefix), token.utf8.count <= 128 else { return nil }
        return try? LibCrypto.sha256(Array(token.utf8))
    }

    /// Counts a failure of `client` and waits out its delay; nil, for the caller to return.
    private func failed(_ client: String) async -> APIPrincipal? {
        let now = ContinuousClock.now
        var entry = failures[client] ?? (0, now)
        if now - entry.last > Self.window { entry.count = 0 }
        entry.count += 1
        entry.last = now
        failures[client] = entry
        // Bounded: a flood of addresses forgets the oldest.
        if failures.count > 4096, let oldest = failures.min(by: { $0.value.last < $1.value.last })?.key { failures[oldest] = nil }
        logger.notice("API request refused: no valid token", [("client", client), ("failures", "\(entry.count)")])
        let over = entry.count - Self.freeFailures
        if over > 0 {
            let delay = min(Duration.seconds(1 << min(over - 1, 5)), Self.maximumDelay)
            try? await Task.sleep(for: delay)
        }
        return nil
    }

    /// A new token: `tbrd_` and 43 base64url characters (32 random bytes), and its SHA-256.
    package static func makeToken() throws -> (token: String, hash: [UInt8]) {
        let random = try LibCrypto.randomBytes(32)
        let base64url = Data(random).base64EncodedString().compactMap { c -> Character? in
            switch c {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: c
            }
        }
        let text = tokenPrefix + String(base64url)
        return (text, try LibCrypto.sha256(Array(text.utf8)))
    }

    // MARK: making and revoking tokens

    /// A new token `name` of `scope`, returned once; only its hash is kept.
    package func createToken(_ name: String, scope text: String) async throws -> String {
        guard let scope = APIScope(rawValue: text) else { throw ServiceError.invalid("\(Quoted(text)) is not a scope (read, epskc, admin)") }
        let (token, hash) = try Self.makeToken()
        _ = try await store.addAPIToken(name, scope: scope.rawValue, hash: hash)
        logger.notice("API token created", [("name", name), ("scope", scope.rawValue)])
        return token
    }

    /// Token `name` no longer admits anything.
    package func revokeToken(_ name: String) async throws {
        try await store.revokeAPIToken(name)
        logger.notice("API token revoked", [("name", name)])
    }

    /// Every token's name, scope and times (never the token).
    package func tokens() async throws -> [APITokenRecord] { try await store.apiTokens() }
}
