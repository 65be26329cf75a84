public import TBRFoundation

/// Real time that a test can move forward at once: ``leap(by:)`` adds to both the monotonic and the
/// wall time, and wakes every sleeper, which sleeps on if its deadline is still ahead. For a whole
/// daemon in a test (its start-up, polls and retries keep running in real time) where one timer of
/// minutes (a migration's deadline) must pass now. ``ManualClock`` stops time instead: for state
/// machines alone.
public final class LeapingClock: TBRClock {
    private let leapt = Locked(Duration.zero)
    private let leaps = ChangeNotifier()

    /// The real clock, not moved yet.
    public init() {}

    /// How far the clock has leapt in all.
    public var offset: Duration { leapt.withLock { $0 } }

    public func now() -> ContinuousClock.Instant { ContinuousClock.now.advanced(by: offset) }

    public func wallTime() -> Double {
        let (seconds, attoseconds) = offset.components
        return SystemClock().wallTime() + Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Moves the clock `duration` forward and wakes every sleeper.
    public func leap(by duration: Duration) {
        leapt.withLock { $0 += duration }
        leaps.changed()
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        while now() < deadline {
            // Real time runs out, or the clock leaps past the deadline: whichever comes first.
            _ = try await waitUntil(within: deadline - now(), wakingOn: [leaps.wakeups]) { self.now() >= deadline }
            try Task.checkCancellation()
        }
    }
}
