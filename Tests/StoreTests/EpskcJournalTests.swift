import TBRFoundation
import Store
import TBRTestKit
import Testing

@Suite("The ePSKc journal")
struct EpskcJournalTests {
    /// Appends an activation and, unless `open`, its deactivation for `router`; returns the sequences.
    @discardableResult
    func session(_ store: TBRStore, _ router: DeviceID, open: Bool = false, at t: Double = 1000) async throws -> [Int64] {
        var sequences = [try await store.appendEpskcEvent(router: router, kind: .activated, activatedAt: t, validSeconds: 120)]
        if !open {
            sequences.append(
                try await store.appendEpskcEvent(
                    router: router, kind: .deactivated, reason: "keyUsed", activatedAt: t, deactivatedAt: t + 30,
                    validSeconds: 120))
        }
        return sequences
    }

    @Test("appends get increasing sequences and read back in full")
    func appendAndRead() async throws {
        try await withStore { store, f in
            #expect(try await store.latestEpskcSequence() == 0)
            let a = try await store.appendEpskcEvent(router: "wpan0", kind: .activated, activatedAt: 10, validSeconds: 300)
            let d = try await store.appendEpskcEvent(
                router: "wpan0", kind: .deactivated, reason: "cancelled", detail: "tooManyAttempts", activatedAt: 10,
                deactivatedAt: 70)
            #expect(d > a)
            let events = try await store.epskcEvents()
            #expect(events == [
                EpskcJournalEntry(
                    sequence: a, router: "wpan0", kind: .activated, reason: nil, detail: nil, activatedAt: 10,
                    deactivatedAt: nil, validSeconds: 300, recordedAt: f.clock.wallTime()),
                EpskcJournalEntry(
                    sequence: d, router: "wpan0", kind: .deactivated, reason: "cancelled", detail: "tooManyAttempts",
                    activatedAt: 10, deactivatedAt: 70, validSeconds: nil, recordedAt: f.clock.wallTime()),
            ])
            #expect(try await store.latestEpskcSequence() == d)
        }
    }

    @Test("an activation carries its session id and restore record back to recovery")
    func sessionAndRestoreRecord() async throws {
        try await withStore { store, _ in
            let record: [UInt8] = Array("{\"agentInstance\":\":1.42\"}".utf8)
            let a = try await store.appendEpskcEvent(
                router: "wpan0", session: "s-1", kind: .activated, activatedAt: 5, validSeconds: 60, restoreRecord: record)
            let open = try await store.latestOpenEpskcSession(router: "wpan0")
            #expect(open?.sequence == a)
            #expect(open?.session == "s-1")
            #expect(open?.restoreRecord == record)
            await #expect(throws: StoreError.self) {
                try await store.appendEpskcEvent(
                    router: "wpan0", session: "s-1", kind: .deactivated, reason: "expired", activatedAt: 5,
                    deactivatedAt: 65, restoreRecord: record)
            }
            try await store.appendEpskcEvent(
                router: "wpan0", session: "s-1", kind: .deactivated, reason: "expired", activatedAt: 5, deactivatedAt: 65)
            let events = try await store.epskcEvents()
            #expect(events.map(\.session) == ["s-1", "s-1"])
            #expect(events.map(\.restoreRecord) == [record, nil])
        }
    }

    @Test("since is exclusive, the router filter and the limit apply")
    func sinceRouterAndLimit() async throws {
        try await withStore { store, _ in
            var all: [Int64] = []
            for i in 0..<5 {
                all += try await session(store, i % 2 == 0 ? "wpan0" : "wpan1")
            }
            #expect(try await store.epskcEvents(since: 0).map(\.sequence) == all)
            #expect(try await store.epskcEvents(since: all[3]).map(\.sequence) == Array(all[4...]))
            #expect(try await store.epskcEvents(since: all.last!).isEmpty)
            let wpan1 = try await store.epskcEvents(router: "wpan1")
            #expect(wpan1.count == 4)
            #expect(wpan1.allSatisfy { $0.router == "wpan1" })
            #expect(try await store.epskcEvents(since: all[1], limit: 3).map(\.sequence) == Array(all[2..<5]))
            #expect(try await store.epskcEvents(since: wpan1[1].sequence, router: "wpan1", limit: 1).map(\.sequence) == [wpan1[2].sequence])
            await #expect(throws: StoreError.self) { _ = try await store.epskcEvents(limit: 0) }
        }
    }

    @Test("inconsistent events are refused and nothing is journalled")
    func inconsistentEventsRefused() async throws {
        try await withStore { store, _ in
            await #expect(throws: StoreError.self) {
                try await store.appendEpskcEvent(router: "wpan0", kind: .deactivated, activatedAt: 1, deactivatedAt: 2)
            }
            await #expect(throws: StoreError.self) {
                try await store.appendEpskcEvent(router: "wpan0", kind: .deactivated, reason: "expired", activatedAt: 1)
            }
            await #expect(throws: StoreError.self) {
                try await store.appendEpskcEvent(router: "wpan0", kind: .activated, reason: "x", activatedAt: 1)
            }
            await #expect(throws: StoreError.self) {
                try await store.appendEpskcEvent(router: "wpan0", kind: .activated, activatedAt: 1, validSeconds: -1)
            }
            // The schema enforces the same rules for writers that bypass the API.
            await #expect(throws: SQLiteError.self) {
                try await store.database.write { db in
                    try db.execute(
                        "INSERT INTO epskc_events (router_id, kind, activated_at, recorded_at) VALUES ('r', 'deactivated', 1, 1)")
                }
            }
            let events = try await store.epskcEvents()
            #expect(events.isEmpty)
            #expect(try await store.latestEpskcSequence() == 0)
        }
    }

    @Test("the open session is the latest activation with no later deactivation, per router")
    func openSessions() async throws {
        try await withStore { store, _ in
            #expect(try await store.latestOpenEpskcSession(router: "wpan0") == nil)
            try await session(store, "wpan0")
            #expect(try await store.latestOpenEpskcSession(router: "wpan0") == nil)
            let open0 = try await session(store, "wpan0", open: true)[0]
            let open1 = try await session(store, "wpan1", open: true)[0]
            try await session(store, "wpan2")
            #expect(try await store.latestOpenEpskcSession(router: "wpan0")?.sequence == open0)
            #expect(try await store.latestOpenEpskcSession(router: "wpan1")?.sequence == open1)
            #expect(try await store.latestOpenEpskcSession(router: "wpan2") == nil)
            #expect(try await store.openEpskcSessions().map(\.sequence) == [open0, open1])

            try await store.appendEpskcEvent(
                router: "wpan0", kind: .deactivated, reason: "expired", activatedAt: 1000, deactivatedAt: 1120)
            #expect(try await store.latestOpenEpskcSession(router: "wpan0") == nil)
            #expect(try await store.openEpskcSessions().map(\.sequence) == [open1])
        }
    }

    @Test("pruning by count keeps the newest events and open sessions; sequences stay monotonic")
    func pruneByCount() async throws {
        try await withStore(retention: JournalRetention(maximumAge: nil, maximumCount: 4)) { store, _ in
            let open = try await session(store, "wpan1", open: true)[0]
            var closed: [Int64] = []
            for _ in 0..<5 { closed += try await session(store, "wpan0") }
            let kept = try await store.epskcEvents().map(\.sequence)
            #expect(kept == [open] + closed.suffix(4), "the open session's activation survives pruning")
            #expect(try await store.latestOpenEpskcSession(router: "wpan1")?.sequence == open)
            #expect(try await store.latestEpskcSequence() == closed.last!)
        }
    }

    @Test("pruning by age removes old events except an open session's activation")
    func pruneByAge() async throws {
        try await withStore(retention: JournalRetention(maximumAge: .seconds(3600), maximumCount: nil)) { store, f in
            let old = try await session(store, "wpan0")
            let open = try await session(store, "wpan1", open: true)[0]
            f.clock.advance(by: .seconds(1800))
            let recent = try await session(store, "wpan0")
            #expect(try await store.pruneEpskcJournal() == 0)
            f.clock.advance(by: .seconds(1801))
            #expect(try await store.pruneEpskcJournal() == old.count)
            #expect(try await store.epskcEvents().map(\.sequence) == [open] + recent)
            f.clock.advance(by: .seconds(7200))
            #expect(try await store.pruneEpskcJournal() == recent.count)
            #expect(try await store.epskcEvents().map(\.sequence) == [open])
        }
    }

    @Test("after pruning everything, new events continue the sequence")
    func sequencesNeverReused() async throws {
        try await withStore(retention: JournalRetention(maximumAge: nil, maximumCount: 0)) { store, _ in
            let first = try await session(store, "wpan0")
            #expect(try await store.epskcEvents().isEmpty)
            let next = try await session(store, "wpan0", open: true)[0]
            #expect(next > first.last!)
            #expect(try await store.epskcEvents().map(\.sequence) == [next], "an open activation is never pruned")
            #expect(try await store.latestEpskcSequence() == next)
        }
    }

    @Test("the journal has no column that could hold a key")
    func noKeyColumn() async throws {
        try await withStore { store, _ in
            let columns = try await store.database.read { db in
                try db.query("SELECT name FROM pragma_table_info('epskc_events')") { row throws(SQLiteError) in
                    try row.get(0, as: String.self)
                }
            }
            #expect(columns == [
                "sequence", "router_id", "session_id", "kind", "reason", "detail", "activated_at", "deactivated_at",
                "valid_seconds", "recorded_at", "restore_record",
            ])
        }
    }
}
