import Store
import Testing

/// The migration lock of each structure (`network_migrations`): one running at a time, kept across a
/// reopen, released by the last update, and gone with its structure.
@Suite struct NetworkMigrationStoreTests {
    @Test func oneRunsAtATimeAcrossAReopenUntilReleased() async throws {
        try await withFixture { fixture in
            let store = try fixture.open()
            let home = try await store.createStructure(named: "Home").id
            let cabin = try await store.createStructure(named: "Cabin").id
            #expect(try await store.networkMigration(of: home) == nil)
            #expect(try await store.beginNetworkMigration("first", in: home) == nil)
            #expect(try await store.beginNetworkMigration("second", in: home) == "first", "refused, naming the running one")
            #expect(try await store.beginNetworkMigration("other", in: cabin) == nil, "another structure has its own lock")

            let reopened = try fixture.open()
            #expect(try await reopened.runningNetworkMigrations().map(\.body) == ["first", "other"])
            try await reopened.updateNetworkMigration("first, done", running: false, in: home)
            #expect(try await reopened.networkMigration(of: home) == .init(structure: home, body: "first, done", running: false))
            #expect(try await reopened.beginNetworkMigration("third", in: home) == nil, "released")
            try await reopened.deleteStructure(cabin)
            #expect(try await reopened.runningNetworkMigrations().map(\.body) == ["third"])
        }
    }
}
