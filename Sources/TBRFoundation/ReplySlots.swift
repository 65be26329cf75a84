/// One-shot answers by key: the one way in tbrd for a task to wait for an answer that another task
/// delivers, in either order. The commands sent to python-matter-server (by message id) and the calls
/// waiting for its connection, the `complete` calls of the commissioning sessions, the replies of one
/// `callInOrder` on the bus, the simulated agent's delayed D-Bus replies, tbrd's `CallGate` and the
/// turns of ``FIFOGate`` and the waiters of ``Latch`` all wait in one. (otbr-sim's HTTP server hands a
/// response from a task to libmicrohttpd's connection thread, which blocks on a semaphore: a thread,
/// not a task, waits there.)
///
/// A slot is opened with ``expect(_:)`` before the answer can come (before the command is sent); from
/// then on ``deliver(_:to:)`` may come before or after ``wait(for:)``: an early answer is kept for the
/// wait. Each slot is answered once and waited for once: a second delivery is refused, and the wait
/// removes the slot. A waiter that is cancelled, or a slot ended with ``cancel(_:)``, removes the slot,
/// and an answer that comes later finds none (``deliver(_:to:)`` says so, for the caller to log).
/// ``failAll(_:)`` ends every slot with an error, kept for waits still to come.
///
/// Every method may be called from any thread or task; nothing is resumed while the lock is held, and
/// no continuation is resumed twice.
public final class ReplySlots<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private enum Slot {
        /// Opened, nobody waits and no answer yet.
        case expected
        /// Answered before anyone waited.
        case answered(Result<Value, any Error>)
        /// A task waits.
        case waiting(CheckedContinuation<Value, any Error>)
    }

    private let slots = Locked<[Key: Slot]>([:])

    /// No slots.
    public init() {}

    /// Whether no slot is open.
    public var isEmpty: Bool { slots.withLock { $0.isEmpty } }

    /// How many slots are open (expected, answered or waited on).
    public var count: Int { slots.withLock { $0.count } }

    /// Whether a task waits in the slot of `key` now.
    public func isAwaited(_ key: Key) -> Bool {
        slots.withLock { if case .waiting? = $0[key] { true } else { false } }
    }

    /// Opens the slot of `key`, so that an answer delivered from now on is kept for ``wait(for:)``. A slot
    /// open already is left as it is.
    public func expect(_ key: Key) {
        slots.withLock { s in
            if s[key] == nil { s[key] = .expected }
        }
    }

    /// Answers the slot of `key` with `result`: resumes its waiter, or keeps the answer for its wait.
    /// - Returns: false when no slot of `key` is open or it holds an answer already (the answer is
    ///   dropped): an answer nobody expects, or waits for any more.
    @discardableResult
    public func deliver(_ result: Result<Value, any Error>, to key: Key) -> Bool {
        let outcome = slots.withLock { s -> (Bool, CheckedContinuation<Value, any Error>?) in
            switch s[key] {
            case .expected?:
                s[key] = .answered(result)
                return (true, nil)
            case .waiting(let waiter)?:
                s[key] = nil
                return (true, waiter)
            case .answered?, nil:
                return (false, nil)
            }
        }
        if let waiter = outcome.1 { resume(waiter, with: result) }
        return outcome.0
    }

    /// Answers every open slot that holds no answer yet with `result` (a connection made for every call
    /// waiting for one, say).
    public func deliverAll(_ result: Result<Value, any Error>) {
        let waiters = slots.withLock { s -> [CheckedContinuation<Value, any Error>] in
            var waiters: [CheckedContinuation<Value, any Error>] = []
            for (key, slot) in s {
                switch slot {
                case .expected: s[key] = .answered(result)
                case .waiting(let waiter):
                    s[key] = nil
                    waiters.append(waiter)
                case .answered: break
                }
            }
            return waiters
        }
        for waiter in waiters { resume(waiter, with: result) }
    }

    /// Fails every open slot that holds no answer yet with `error`: waiters throw it now, later waits
    /// throw it when they come (the connection the answers would have come on is gone, say).
    public func failAll(_ error: any Error) { deliverAll(.failure(error)) }

    /// Closes the slot of `key`: its waiter, if any, throws `CancellationError`; a later answer is dropped.
    /// - Returns: whether a slot was open.
    @discardableResult
    public func cancel(_ key: Key) -> Bool {
        let removed = slots.withLock { $0.removeValue(forKey: key) }
        if case .waiting(let waiter)? = removed { resume(waiter, with: .failure(CancellationError())) }
        return removed != nil
    }

    /// Waits for the answer of `key`'s slot (at once if it came already) and closes the slot.
    /// - Returns: the value delivered.
    /// - Throws: the error delivered; `CancellationError` when the task is cancelled first (the slot is
    ///   closed, so the answer is dropped when it comes), when the slot is closed with ``cancel(_:)``,
    ///   or when no slot of `key` is open.
    public func wait(for key: Key) async throws -> Value {
        let value = try await withTaskCancellationHandler {
            try await suspend(for: key, cancellable: true)
        } onCancel: {
            cancelWaiter(of: key)
        }
        ThreadSanitizer.acquire(self)
        return value
    }

    /// Waits for the answer of `key`'s slot as ``wait(for:)`` does, but a cancelled task waits on: for
    /// work that must happen once it was asked for (an input to a state machine, a turn in a line).
    /// - Throws: the error delivered; `CancellationError` when the slot is closed with ``cancel(_:)`` or
    ///   no slot of `key` is open.
    public func waitIgnoringCancellation(for key: Key) async throws -> Value {
        let value = try await suspend(for: key, cancellable: false)
        ThreadSanitizer.acquire(self)
        return value
    }

    private func suspend(for key: Key, cancellable: Bool) async throws -> Value {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Value, any Error>) in
            // The cancellation handler may have run before the waiter was here to remove: a task
            // cancelled by then closes the slot itself (under the lock, so no answer slips between).
            let ready = slots.withLock { s -> Result<Value, any Error>? in
                switch s[key] {
                case .answered(let result)?:
                    s[key] = nil
                    return result
                case .expected? where cancellable && Task.isCancelled:
                    s[key] = nil
                    return .failure(CancellationError())
                case .expected?:
                    s[key] = .waiting(waiter)
                    return nil
                case .waiting?, nil:
                    return .failure(CancellationError())
                }
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// The waiting task of `key` was cancelled: its slot closes and it throws `CancellationError`.
    private func cancelWaiter(of key: Key) {
        let waiter = slots.withLock { s -> CheckedContinuation<Value, any Error>? in
            guard case .waiting(let waiter)? = s[key] else { return nil }
            s[key] = nil
            return waiter
        }
        if let waiter { resume(waiter, with: .failure(CancellationError())) }
    }

    /// Resumes `waiter` once it left the lock; what the delivering thread did before happens before what
    /// the waiter does after (the order TSan cannot see when the waiter had not suspended yet,
    /// ``ThreadSanitizer``).
    private func resume(_ waiter: CheckedContinuation<Value, any Error>, with result: Result<Value, any Error>) {
        ThreadSanitizer.release(self)
        waiter.resume(with: result)
    }
}
