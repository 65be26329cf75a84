/// The next instant a sans-IO machine wants to be called, on an injected clock, and the driver that
/// calls it then: the one timer of tbrd's state machines (the ePSKc sessions, the policy reconciler,
/// the commissioning sessions) and of the ePSKc journal's retries.
///
/// The owner ``set(_:)``s the instant its machine asked for (a `wake(at:)` directive) or clears it
/// (`cancelWake`); ``run(_:)`` sleeps until that instant and calls its closure once it has passed,
/// clearing the instant first, so a due instant fires once. Setting another instant while the driver
/// sleeps, earlier or later, moves its wake-up; clearing it leaves the driver asleep without a timer.
/// Because the instant is cleared as it fires, a closure that reaches its machine late (it waits for an
/// actor or a gate) may find the machine has moved on: the machines decide from the time they are given
/// whether anything is due, so such a call changes nothing.
///
/// ```swift
/// let alarm = Alarm(clock: clock)
/// group.addTask { await alarm.run { await self.timerFired() } }   // until the task is cancelled
/// alarm.set(clock.now().advanced(by: .seconds(5)))
/// ```
public final class Alarm: Sendable {
    /// Where the instants are waited for.
    public let clock: any TBRClock
    private let state = Locked<ContinuousClock.Instant?>(nil)
    private let changed = WakeSignal()

    /// An alarm with no instant set, timed on `clock`.
    public init(clock: any TBRClock) { self.clock = clock }

    /// The instant the driver waits for; nil when none is set (or the last one has fired).
    public var instant: ContinuousClock.Instant? { state.withLock { $0 } }

    /// Makes `instant` the next one the driver calls at (nil: none), in place of any set before; an
    /// instant already past fires at once.
    public func set(_ instant: ContinuousClock.Instant?) {
        let moved = state.withLock { current -> Bool in
            guard current != instant else { return false }
            current = instant
            return true
        }
        if moved { changed.signal() }
    }

    /// Clears the instant: the driver calls nothing until another is set.
    public func cancel() { set(nil) }

    /// Calls `fire` each time the instant set passes on ``clock`` (clearing it just before), until the
    /// task is cancelled. One task drives an alarm at a time; `fire` runs in it, so the next instant is
    /// waited for once `fire` has returned.
    public func run(_ fire: @Sendable () async -> Void) async {
        while !Task.isCancelled {
            if let next = instant {
                // Until the instant passes or another is set, whichever is first.
                _ = try? await TimeLimit.run(until: next, clock: clock) { await self.changed.wait() }
            } else {
                await changed.wait()
            }
            if Task.isCancelled { return }
            let now = clock.now()
            let due = state.withLock { current -> Bool in
                guard let instant = current, instant <= now else { return false }
                current = nil
                return true
            }
            if due { await fire() }
        }
    }
}
