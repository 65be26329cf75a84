/// Work bounded in time on an injected clock: the one way long calls (a commissioner's commands, a
/// connection) are given a timeout.
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
        try await withThrowingTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask { .finished(try await operation()) }
            group.addTask {
                try await clock.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
