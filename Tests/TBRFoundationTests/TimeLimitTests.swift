import TBRFoundation
import TBRTestKit
import Testing

/// The one race against a deadline: the work's answer, a timeout, and a caller that gives up.
@Suite struct TimeLimitTests {
    /// Work that ends only when cancelled.
    static func forever() async throws -> Int {
        try await SystemClock().sleep(for: .seconds(3600))
        return 0
    }

    @Test func theWorkThatEndsFirstWinsAndTheLimitOnlyWhenItPasses() async throws {
        let clock = ManualClock()
        guard case .finished(7) = try await TimeLimit.run(.seconds(5), clock: clock, { 7 }) else { Issue.record("not finished"); return }
        let waiting = Task { try await TimeLimit.run(.seconds(5), clock: clock, Self.forever) }
        try await eventually("the deadline is waited for", wakingOn: clock.wakeups) { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(5))
        guard case .timedOut = try await waiting.value else { Issue.record("not timed out"); return }
    }

    /// A caller that is cancelled gets CancellationError, never a timeout it did not reach.
    @Test func aCancelledCallerIsNotATimeout() async throws {
        let clock = ManualClock()
        let caller = Task { try await TimeLimit.run(.seconds(5), clock: clock, Self.forever) }
        try await eventually("the deadline is waited for", wakingOn: clock.wakeups) { clock.sleeperCount > 0 }
        caller.cancel()
        await #expect(throws: CancellationError.self) { _ = try await caller.value }
    }

    /// A deadline given as an instant: one already passed times out without waiting; a later one only
    /// when the clock reaches it.
    @Test func aDeadlineInstantTimesOutWhenTheClockReachesIt() async throws {
        let clock = ManualClock()
        let start = clock.now()
        guard case .timedOut = try await TimeLimit.run(until: start, clock: clock, Self.forever) else {
            Issue.record("a deadline already passed did not time out")
            return
        }
        let waiting = Task { try await TimeLimit.run(until: start.advanced(by: .seconds(10)), clock: clock, Self.forever) }
        try await eventually("the deadline is waited for", wakingOn: clock.wakeups) { clock.sleepingUntil == [start.advanced(by: .seconds(10))] }
        clock.advance(by: .seconds(9))
        #expect(clock.sleepingUntil == [start.advanced(by: .seconds(10))], "nine seconds in, the deadline still waits")
        clock.advance(by: .seconds(1))
        guard case .timedOut = try await waiting.value else { Issue.record("not timed out"); return }
    }

    /// Without a limit the work simply runs; with one it is bounded.
    @Test func anOptionalLimitBoundsTheWorkOnlyWhenGiven() async throws {
        let clock = ManualClock()
        guard case .finished(3) = try await TimeLimit.run(optionally: nil, clock: clock, { 3 }) else { Issue.record("not finished"); return }
        #expect(clock.sleeperCount == 0, "no limit, no timer")
        let waiting = Task { try await TimeLimit.run(optionally: .seconds(2), clock: clock, Self.forever) }
        try await eventually("the deadline is waited for", wakingOn: clock.wakeups) { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(2))
        guard case .timedOut = try await waiting.value else { Issue.record("not timed out"); return }
    }

    /// What the work throws reaches the caller, before the limit.
    @Test func theWorksErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        let clock = ManualClock()
        await #expect(throws: Refused.self) { _ = try await TimeLimit.run(.seconds(5), clock: clock, { () throws -> Int in throw Refused() }) }
    }

    /// Work that ends at once cancels the timer as it starts sleeping, over and over: every race ends
    /// and no sleeper is left behind (a manual clock that slept through a cancellation hung here).
    @Test func aTimerCancelledAsItStartsNeverHangs() async throws {
        let clock = ManualClock()
        let done = Locked(0)
        let races = Task {
            for _ in 0..<2000 {
                _ = try await TimeLimit.run(.seconds(60), clock: clock, { 1 })
                done.withLock { $0 += 1 }
            }
        }
        // A hang is forever; 120 s only bounds how long a failing run waits (2000 races took over 30 s
        // once, with the whole suite sharing two cores).
        try await eventually("2000 races end", timeout: .seconds(120)) { done.withLock { $0 } == 2000 }
        try await races.value
        #expect(clock.sleeperCount == 0)
    }
}
