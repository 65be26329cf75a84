/// Work bounded in time on an injected clock: the one race of async work against a deadline in tbrd,
/// its simulators and tests. A commissioner's commands and connection, `LeaveNetwork`'s wait for the
/// agent to come back, tbrd's wait for the calls in flight at shutdown, a migration's wait for each
/// router, tbrctl's `--timeout`s, ``Alarm``'s sleep and the tests' `withTimeout` and `collect` all go
/// through it. (Code that blocks a thread on purpose, `Subprocess` and the DTLS session, bounds its
/// `poll(2)` instead.)
public enum TimeLimit {
    /// How bounded work ended.
    public enum Outcome<Value: Sendable>: Sendable {
        /// The work finished in time with this value.
        case finished(Value)
        /// The limit passed first; the work was cancelled (and has ended).
        case timedOut
    }

    /// Runs `operation`; when `limit` passes on `clock` first, cancels it, waits for it to end, and
    /// answers ``Outcome/timedOut``. The operation must end promptly when cancelled.
    /// - Throws: what `operation` throws when it ends first; `CancellationError` when the caller's task
    ///   is cancelled before either ends (a caller giving up is not a timeout).
    public static func run<Value: Sendable>(
        _ limit: Duration, clock: any TBRClock, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Outcome<Value> {
        try await run(until: clock.now().advanced(by: limit), clock: clock, operation)
    }

    /// Runs `operation`; when `deadline` passes on `clock` first (at once if it has passed already),
    /// cancels it, waits for it to end, and answers ``Outcome/timedOut``. The operation must end
    /// promptly when cancelled.
    /// - Throws: what `operation` throws when it ends first; `CancellationError` when the caller's task
    ///   is cancelled before either ends.
    public static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant, clock: any TBRClock, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Outcome<Value> {
        try await withThrowingTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask { .finished(try await operation()) }
            group.addTask {
                try await clock.sleep(until: deadline)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// Runs `operation` within `limit` on `clock`, or without a limit when `limit` is nil (as options such
    /// as tbrctl's `--timeout` are given or not).
    /// - Throws: as ``run(_:clock:_:)``.
    public static func run<Value: Sendable>(
        optionally limit: Duration?, clock: any TBRClock, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Outcome<Value> {
        guard let limit else { return .finished(try await operation()) }
        return try await run(limit, clock: clock, operation)
    }
}
