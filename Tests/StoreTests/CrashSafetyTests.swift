import Foundation
import Store
import TBRTestKit
import Testing

@Suite("Crash safety")
struct CrashSafetyTests {
    /// A `sqlite3` script that, through tbrd's schema, commits `transactions` transactions of one ePSKc
    /// session each (activation + deactivation) plus an update of the router's `last_seen_at` to the
    /// session's number, so every committed transaction is checkable afterwards.
    static func writerScript(transactions: Int) -> String {
        var script = """
            .bail on
            PRAGMA busy_timeout = 5000;
            PRAGMA synchronous = FULL;
            CREATE TEMP VIEW session (n) AS SELECT 0;
            CREATE TEMP TRIGGER write_session INSTEAD OF INSERT ON session BEGIN
                INSERT INTO epskc_events (router_id, kind, activated_at, valid_seconds, recorded_at)
                    VALUES ('r1', 'activated', NEW.n, 120, NEW.n);
                INSERT INTO epskc_events (router_id, kind, reason, activated_at, deactivated_at, valid_seconds, recorded_at)
                    VALUES ('r1', 'deactivated', 'keyUsed', NEW.n, NEW.n + 1, 120, NEW.n);
                UPDATE routers SET last_seen_at = NEW.n WHERE id = 'r1';
            END;

            """
        script.reserveCapacity(script.utf8.count + transactions * 48)
        for n in 1...transactions { script += "BEGIN IMMEDIATE;INSERT INTO session VALUES(\(n));COMMIT;\n" }
        return script
    }

    @Test("SIGKILL in the middle of thousands of transactions leaves a sound, contiguous journal")
    func killedWriter() async throws {
        let sqlite3 = try Executables.find("sqlite3", package: "sqlite3")
        try await withFixture { f in
            do {
                let store = try f.open()  // creates the schema through our migrations
                try await store.recordRouter("r1")
            }
            let scriptURL = f.directory.appendingPathComponent("writer.sql")
            try Data(Self.writerScript(transactions: 100_000).utf8).write(to: scriptURL)
            let writer = try TestProcess(sqlite3, ["-batch", f.path], directory: f.directory, stdinPath: scriptURL.path)

            // Wait until the writer has committed well past its first pages (the WAL has grown to 256 KiB),
            // so that the kill lands in the middle of its stream of transactions.
            func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: f.path + "-wal")[.size] as? Int).flatMap { $0 } ?? 0 }
            do {
                try await eventually("sqlite3 is writing", timeout: .seconds(20)) {
                    guard writer.isRunning else { throw TestKitError("sqlite3 is not writing: \(writer.stderr)") }
                    return walSize() >= 256 * 1024
                }
            } catch {
                Issue.record("\(error)")
                return
            }
            #expect(writer.isRunning, "sqlite3 finished before it was killed; give it more transactions")
            let status = await writer.terminate(signal: SIGKILL)
            #expect(status == 128 + SIGKILL, "\(writer.stderr)")

            let store = try f.open()
            #expect(try await store.database.integrityCheck() == ["ok"])
            var events: [EpskcJournalEntry] = []
            while true {
                let page = try await store.epskcEvents(since: events.last?.sequence ?? 0, limit: 5000)
                if page.isEmpty { break }
                events += page
            }
            let sessions = events.count / 2
            #expect(sessions > 0, "no transaction committed before the kill")
            #expect(events.count % 2 == 0, "a transaction was half committed")
            #expect(events.map(\.sequence) == (0..<events.count).map { Int64($0) + 1 }, "sequences are contiguous")
            for (i, event) in events.enumerated() {
                let n = Double(i / 2 + 1)
                let expectedKind: EpskcJournalEntry.Kind = i % 2 == 0 ? .activated : .deactivated
                guard event.kind == expectedKind, event.activatedAt == n, event.router == "r1" else {
                    Issue.record("event \(i) is not part of a complete session: \(event)")
                    break
                }
            }
            let lastSeen = try await store.knownRouter("r1")?.lastSeenAt
            #expect(lastSeen == Double(sessions), "the router update and the journal rows commit together")
            #expect(try await store.latestOpenEpskcSession(router: "r1") == nil)

            // The store carries on where the writer stopped.
            let next = try await store.appendEpskcEvent(router: "r1", kind: .activated, activatedAt: 1, validSeconds: 30)
            #expect(next == Int64(events.count) + 1)
            #expect(try await store.latestOpenEpskcSession(router: "r1")?.sequence == next)
            #expect(try await store.database.integrityCheck() == ["ok"])
            print("crash test: \(sessions) sessions committed before SIGKILL")
        }
    }

    @Test("a write that fails midway in the store leaves no partial change")
    func failedWriteIsAtomic() async throws {
        try await withStore { store, _ in
            try await store.recordRouter("wpan0")
            await #expect(throws: SQLiteError.self) {
                try await store.database.write { db in
                    try db.execute("INSERT INTO structures (name, created_at) VALUES ('Half', 0)")
                    try db.execute("INSERT INTO epskc_events (router_id, kind, activated_at, recorded_at) VALUES ('wpan0', 'activated', 0, 0)")
                    // A membership of a router that does not exist: the foreign key refuses it.
                    try db.execute("INSERT INTO memberships (router_id, structure_id, added_at) VALUES ('ghost', last_insert_rowid(), 0)")
                }
            }
            #expect(try await store.structures().isEmpty)
            #expect(try await store.epskcEvents().isEmpty)
            #expect(try await store.latestEpskcSequence() == 0)
        }
    }
}
