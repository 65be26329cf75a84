import Foundation
import Store
import TBRTestKit
import Testing

@Suite("Schema migrations")
struct MigrationTests {
    @Test("a new database gets every migration and tbrd's tables")
    func fromEmpty() async throws {
        try await withFixture { f in
            let store = try f.open()
            #expect(store.schemaVersion == TBRStore.migrations.count)
            #expect(store.database.openedAtVersion == 0)
            let tables = try await store.database.read { db in
                try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
                    row throws(SQLiteError) in try row.get(0, as: String.self)
                }
            }
            #expect(tables == ["api_tokens", "applied_policies", "epskc_events", "health_samples", "health_subjects", "matter_nodes", "memberships", "network_migrations", "problems", "rooms", "routers", "structures", "thread_networks"])
            let version = try await store.database.read { db in try db.userVersion() }
            #expect(version == TBRStore.migrations.count)
        }
    }

    @Test("reopening applies nothing and keeps the data")
    func reopenIsIdempotent() async throws {
        try await withFixture { f in
            do {
                let store = try f.open()
                try await store.createStructure(named: "Home")
            }
            let again = try f.open()
            #expect(again.database.openedAtVersion == again.schemaVersion)
            #expect(try await again.structures().map(\.name) == ["Home"])
            let third = try f.open()
            #expect(try await third.structures().count == 1)
        }
    }

    @Test("a database from a newer schema is refused, untouched, with a clear error")
    func newerSchemaRefused() async throws {
        try await withFixture { f in
            do {
                let db = try Database(path: f.path)
                try db.setUserVersion(99)
            }
            let expected = StoreError.schemaTooNew(path: f.path, found: 99, supported: TBRStore.migrations.count)
            #expect(throws: expected) { _ = try f.open() }
            #expect(expected.description.contains("newer"))
            let db = try Database(path: f.path)
            #expect(try db.userVersion() == 99)
            #expect(try db.scalar("SELECT count(*) FROM sqlite_master", as: Int.self) == 0)
        }
    }

    @Test("migrations run in order, one transaction each; a failing one is rolled back alone")
    func failingMigrationRollsBack() async throws {
        try await withFixture { f in
            let good = [
                SchemaMigration(version: 1, "a", sql: "CREATE TABLE a (x INTEGER)"),
                SchemaMigration(version: 2, "b", sql: "CREATE TABLE b (x INTEGER); INSERT INTO a VALUES (2)"),
            ]
            let bad = SchemaMigration(version: 3, "c then a mistake", sql: "CREATE TABLE c (x INTEGER); INSERT INTO nowhere VALUES (1)")
            do throws(StoreError) {
                _ = try DatabaseActor(path: f.path, migrations: good + [bad])
                Issue.record("the failing migration was not reported")
            } catch {
                guard case .migrationFailed(_, let version, let summary, let underlying) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(version == 3)
                #expect(summary == "c then a mistake")
                #expect(underlying.message.contains("nowhere"))
            }
            let db = try Database(path: f.path)
            #expect(try db.userVersion() == 2)
            let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                row throws(SQLiteError) in try row.get(0, as: String.self)
            }
            #expect(tables == ["a", "b"])
            #expect(try db.scalar("SELECT x FROM a", as: Int.self) == 2)
        }
    }

    @Test("an older database is upgraded from where it stands")
    func upgradeFromOlderVersion() async throws {
        try await withFixture { f in
            let v1 = SchemaMigration(version: 1, "a", sql: "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)")
            let v2 = SchemaMigration(version: 2, "a.y") { db throws(SQLiteError) in
                try db.execute("ALTER TABLE a ADD COLUMN y TEXT")
                try db.execute("UPDATE a SET y = ?", [.text("migrated")])
            }
            let first = try DatabaseActor(path: f.path, migrations: [v1])
            #expect(first.schemaVersion == 1)
            let second = try DatabaseActor(path: f.path, migrations: [v1, v2])
            #expect(second.openedAtVersion == 1)
            #expect(second.schemaVersion == 2)
            let y = try await second.read { db in try db.scalar("SELECT y FROM a", as: String.self) }
            #expect(y == "migrated")
            #expect(try await first.read { db in try db.userVersion() } == 2)
        }
    }

    @Test("version 3 keeps the applied policies of version 2, error as detail, and takes unsupported")
    func appliedPoliciesGainUnsupportedAndADetail() async throws {
        try await withFixture { f in
            do {
                let v2 = try DatabaseActor(path: f.path, migrations: Array(TBRStore.migrations.prefix(2)))
                #expect(v2.schemaVersion == 2)
                try await v2.write { db in
                    try db.execute("INSERT INTO routers (id, first_seen_at, last_seen_at) VALUES ('wpan0', 1, 1), ('wpan1', 1, 1)")
                    try db.execute(
                        """
                        INSERT INTO applied_policies (router_id, option, state, error, updated_at)
                        VALUES ('wpan0', 'none', 'failed', 'SetNat64Enabled: NotImplemented', 2), ('wpan1', NULL, 'applied', NULL, 3)
                        """)
                }
            }
            let store = try f.open()
            #expect(store.database.openedAtVersion == 2 && store.schemaVersion == TBRStore.migrations.count)
            #expect(try await store.appliedPolicy(router: "wpan0") == AppliedPolicy(
                option: "none", state: .failed, detail: "SetNat64Enabled: NotImplemented", updatedAt: 2))
            #expect(try await store.appliedPolicy(router: "wpan1")?.detail == "")
            let home = try await store.createStructure(named: "Home")
            try await store.addRouter("wpan0", toStructure: home.id)
            let stored = try await store.recordAppliedPolicy(.unsupported, detail: "no NAT64", option: "nat64Only", router: "wpan0")
            #expect(stored.state == .unsupported && stored.detail == "no NAT64")
            // A failed or unsupported record without a reason is refused; the table's CHECK says the same.
            await #expect(throws: StoreError.self) { try await store.recordAppliedPolicy(.failed, option: "none", router: "wpan0") }
            await #expect(throws: SQLiteError.self) {
                try await store.database.write { db in
                    try db.execute("UPDATE applied_policies SET state = 'unsupported', detail = '' WHERE router_id = 'wpan0'")
                }
            }
            // Records of routers that belong to no structure are dropped when statuses are recorded.
            #expect(try await store.appliedPolicy(router: "wpan1") == nil)
        }
    }
}
