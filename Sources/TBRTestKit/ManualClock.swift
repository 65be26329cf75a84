import Synchronization
public import TBRFoundation

/// A clock tests move by hand: ``advance(by:)`` wakes every sleeper whose deadline has passed.
public final class ManualClock: TBRClock {
    private struct State {
        var now: ContinuousClock.Instant
        var wall: Double
        var sleepers: [(deadline: ContinuousClock.Instant, id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>
    /// Told when a task starts or stops sleeping (``wakeups``).
    private let sleeperChanges = ChangeNotifier()

    /// A clock starting at the real current instant and `wallTime` seconds since the epoch.
    public init(wallTime: Double = 1_700_000_000) {
        state = Locked(State(now: ContinuousClock.now, wall: wallTime))
    }

    public func now() -> ContinuousClock.Instant { state.withLock { $0.now } }
    public func wallTime() -> Double { state.withLock { $0.wall } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The instants the tasks sleeping on this clock wait for, earliest first: what a test waits for to
    /// know a timer is set where it should be before it moves the clock.
    public var sleepingUntil: [ContinuousClock.Instant] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                // The cancellation handler may have run already, before there was a sleeper to remove:
                // a task cancelled by then must not be left asleep.
                let outcome = state.withLock { s -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers.append((deadline, id, c))
                    return nil
                }
                if let outcome { c.resume(with: outcome) } else { sleeperChanges.changed() }
            }
        } onCancel: {
            let c = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i).continuation
            }
            if let c {
                c.resume(throwing: CancellationError())
                sleeperChanges.changed()
            }
        }
    }

    /// Moves time forward by `duration` and wakes the sleepers that are due, in deadline order.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.now = s.now.advanced(by: duration)
            let (c, a) = duration.components
            s.wall += Double(c) + Double(a) / 1e18
            let ready = s.sleepers.filter { $0.deadline <= s.now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= s.now }
            return ready.map(\.continuation)
        }
        for c in due { c.resume() }
        if !due.isEmpty { sleeperChanges.changed() }
    }

    /// A wake-up each time a task starts or stops sleeping on this clock: what a test waits on before it
    /// moves the clock (``sleeperCount``, ``sleepingUntil``).
    public var wakeups: Wakeups { sleeperChanges.wakeups }
}
