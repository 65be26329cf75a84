/// Where the time comes from. Production code uses ``SystemClock``; tests inject a manual clock so
/// state machines can be driven without sleeping.
public protocol TBRClock: Sendable {
    /// Monotonic time, for deadlines and durations.
    func now() -> ContinuousClock.Instant
    /// Wall-clock time in seconds since the Unix epoch, for timestamps shown to people and journals.
    func wallTime() -> Double
    /// Suspends until `deadline` (or throws `CancellationError`).
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension TBRClock {
    /// Suspends for `duration`.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().advanced(by: duration))
    }
}

/// The real clock: `ContinuousClock` for monotonic time, `clock_gettime(CLOCK_REALTIME)` for wall time.
public struct SystemClock: TBRClock {
    /// The system clock.
    public init() {}

    public func now() -> ContinuousClock.Instant { ContinuousClock.now }

    public func wallTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: nil)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
