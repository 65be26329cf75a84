/// Running work against a time limit, for options such as `--timeout`.
enum Deadline {
    /// How timed work ended.
    enum Outcome<R: Sendable>: Sendable {
        /// The work finished with this value.
        case finished(R)
        /// The time ran out first; the work was cancelled.
        case timedOut
    }

    /// Runs `body`; when `limit` passes first, cancels it and answers ``Outcome/timedOut``. Without a
    /// limit it simply runs `body`.
    /// - Throws: what `body` throws.
    static func run<R: Sendable>(after limit: Duration?, _ body: @escaping @Sendable () async throws -> R) async throws
        -> Outcome<R>
    {
        guard let limit else { return .finished(try await body()) }
        return try await withThrowingTaskGroup(of: Outcome<R>.self) { group in
            group.addTask { .finished(try await body()) }
            group.addTask {
                try await Task.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { return .timedOut }
            return first
        }
    }
}
