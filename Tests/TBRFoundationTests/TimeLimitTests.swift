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
        try await eventually("the deadline is waited for") { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(5))
        guard case .timedOut = try await waiting.value else { Issue.record("not timed out"); return }
    }

    /// A caller that is cancelled gets CancellationError, never a timeout it did not reach.
    @Test func aCancelledCallerIsNotATimeout() async throws {
        let clock = ManualClock()
        let caller = Task { try await TimeLimit.run(.seconds(5), clock: clock, Self.forever) }
        try await eventually("the deadline is waited for") { clock.sleeperCount > 0 }
        caller.cancel()
        await #expect(throws: CancellationError.self) { _ = try await caller.value }
    }
}
