import Store
import Testing

/// The HTTPS API's tokens (`api_tokens`): kept by their hash only, one per name, found by hash, revoked
/// for good; the table refuses what is not a token.
@Suite struct APITokenStoreTests {
    @Test func tokensAreKeptByHashFoundByHashAndRevokedForGood() async throws {
        try await withFixture { fixture in
            let store = try fixture.open()
            let hash = [UInt8](repeating: 7, count: 32), other = [UInt8](repeating: 9, count: 32)
            let added = try await store.addAPIToken("phone", scope: "epskc", hash: hash)
            #expect(added.name == "phone" && added.scope == "epskc" && added.lastUsedAt == nil)
            await #expect(throws: StoreError.duplicateToken("phone")) { try await store.addAPIToken("phone", scope: "read", hash: other) }
            await #expect(throws: StoreError.invalidArgument("a token's scope is read, epskc or admin")) {
                try await store.addAPIToken("x", scope: "root", hash: other)
            }
            await #expect(throws: StoreError.invalidArgument("a token's hash is 32 bytes")) { try await store.addAPIToken("x", scope: "read", hash: [1]) }

            let used = try #require(try await store.useAPIToken(hash: hash))
            #expect(used.name == "phone" && used.lastUsedAt != nil)
            #expect(try await store.useAPIToken(hash: other) == nil)
            let reopened = try fixture.open()
            #expect(try await reopened.apiTokens().map(\.name) == ["phone"])
            #expect(try await reopened.apiTokens().first?.lastUsedAt != nil, "the last use is kept")

            try await reopened.revokeAPIToken("phone")
            #expect(try await reopened.useAPIToken(hash: hash) == nil)
            await #expect(throws: StoreError.tokenNotFound("phone")) { try await reopened.revokeAPIToken("phone") }
        }
    }
}
