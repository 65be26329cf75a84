import Foundation
import Store
import TBRTestKit
import Testing

/// The health history's samples (issue 49) over a week compressed with a manual clock: retention removes
/// what is older, reading from a moment finds exactly what came after it, and the size bound holds.
@Suite struct HealthSampleTests {
    static let routers = ["wpan0", "wpan1", "wpan2", "wpan3"]

    /// A week of one change every 10 minutes per router, the clock moved between them.
    static func week(_ store: TBRStore, _ clock: ManualClock, sizeBound: Int) async throws {
        for step in 0..<(7 * 144) {
            for (i, router) in routers.enumerated() {
                let sample = HealthSampleRecord(at: 0, subject: router, routers: 1 + (step + i) % 5, children: step % 7)
                try await store.appendSample(sample, sizeBound: sizeBound)
            }
            clock.advance(by: .seconds(600))
        }
    }

    @Test func retentionRemovesWhatIsOlderAndReadingFromAMomentFindsWhatFollows() async throws {
        try await withStore { store, fixture in
            let start = fixture.clock.wallTime()
            try await Self.week(store, fixture.clock, sizeBound: 64 << 20)
            #expect(try await store.samples(since: 0, subject: nil).count == 7 * 144 * 4)

            let now = fixture.clock.wallTime()
            let removed = try await store.pruneSamples(before: now - 3 * 86_400)
            let kept = try await store.samples(since: 0, subject: nil)
            #expect(removed + kept.count == 7 * 144 * 4)
            #expect(kept.allSatisfy { $0.at >= (now - 3 * 86_400).rounded(.down) }, "nothing older than three days")
            #expect(kept.count == 3 * 144 * 4, "three days of them: \(kept.count)")

            let lastHour = try await store.samples(since: now - 3600, subject: "wpan2")
            #expect(lastHour.count == 6 && lastHour.allSatisfy { $0.subject == "wpan2" && $0.state == nil && $0.routers != nil })
            #expect(try await store.samples(since: now + 1, subject: nil).isEmpty)
            #expect(try await store.samples(since: 0, subject: "wpan9").isEmpty)
            #expect(start < now)
        }
    }

    @Test func theHistoryNeverGrowsPastItsBound() async throws {
        try await withStore { store, fixture in
            // The bound is of the whole database's pages in use: what the other tables take, and 48 KiB.
            let bound = try await store.usedBytes() + (48 << 10)
            try await Self.week(store, fixture.clock, sizeBound: bound)
            let used = try await store.usedBytes()
            #expect(used <= bound + (16 << 10), "\(used) bytes in use, bound \(bound)")
            let kept = try await store.samples(since: 0, subject: nil)
            #expect(kept.count < 7 * 144 * 4, "the oldest went")
            let newest = try #require(kept.last)
            #expect(newest.at == (fixture.clock.wallTime() - 600).rounded(.down), "the newest stayed")
            // Other state is untouched by the bound.
            let problem = try await store.openProblem(subject: "wpan0", check: "partition", message: "m", fix: "")
            let open = try await store.openProblems()
            #expect(problem.opened && open.count == 1)
        }
    }
}
