import Synchronization

/// Shared mutable state behind a `Synchronization.Mutex`, whose critical sections ThreadSanitizer can
/// order.
///
/// On Linux a contended `Mutex` waits on a futex, which TSan does not intercept: two critical sections
/// of one mutex on two threads then look unordered and are reported as a race. `Locked` runs each
/// critical section between `__tsan_acquire` and `__tsan_release` on itself (``ThreadSanitizer``), so
/// `make tsan` reports only real races. Outside a TSan build the annotations are no-ops and `Locked` is
/// a `Mutex` in a class. Use it wherever the project would use `Mutex` for state shared across threads.
public final class Locked<State: ~Copyable>: Sendable {
    private let mutex: Mutex<State>

    /// State starting as `initial`.
    public init(_ initial: consuming sending State) { mutex = Mutex(initial) }

    /// Runs `body` with exclusive access to the state.
    /// - Throws: what `body` throws.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (state: inout sending State) throws(E) -> sending Result in
            ThreadSanitizer.acquire(self)
            defer { ThreadSanitizer.release(self) }
            return try body(&state)
        }
    }
}
