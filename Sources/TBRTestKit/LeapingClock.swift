public import TBRFoundation

/// Real time that a test can move forward at once: ``leap(by:)`` adds to both the monotonic and the
/// wall time, and wakes every sleeper, which sleeps on if its deadline is still ahead. For a whole
/// daemon in a test (its start-up, polls and retries keep running in real time) where one timer of
/// minutes (a migration's deadline) must pass now. ``ManualClock`` stops time instead: for state
/// machines alone.
public final class LeapingClock: TBRClock {
    private struct State {
        var offset: Duration = .zero
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waiters cancelled before they registered.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// The real clock, not moved yet.
    public init() {}

    /// How far the clock has leapt in all.
    public var offset: Duration { state.withLock { $0.offset } }

    public func now() -> ContinuousClock.Instant { ContinuousClock.now.advanced(by: offset) }

    public func wallTime() -> Double {
        let (seconds, attoseconds) = offset.components
        return SystemClock().wallTime() + Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Moves the clock `duration` forward and wakes every sleeper.
    public func leap(by duration: Duration) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.offset += duration
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        while true {
            try Task.checkCancellation()
            let left = deadline - now()
            if left <= .zero { return }
            // Real time runs out, or the clock leaps: whichever comes first; then look again.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await Task.sleep(for: left) }
                group.addTask { await self.nextLeap() }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// Returns at the next leap, or when the task is cancelled.
    private func nextLeap() async {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.cancelled.remove(id) != nil { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                if let waiter = s.waiters.removeValue(forKey: id) { return waiter }
                s.cancelled.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }
}
