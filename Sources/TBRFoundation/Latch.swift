/// A one-shot latch: ``wait()`` returns once ``countDown()`` was called `count` times, or ``open()``
/// was called, and at once from then on. A waiter whose task is cancelled waits on (what it waits for
/// is a fact that will come: the service ready, the signal sources registered). The waits are
/// ``ReplySlots``, one slot a waiter, answered together when the latch opens.
public final class Latch: Sendable {
    private struct State {
        var remaining: Int
        var lastWaiter: UInt64 = 0
    }

    private let state: Locked<State>
    private let waiters = ReplySlots<UInt64, Void>()

    /// A latch that opens after `count` ``countDown()`` calls (at once for 0).
    public init(count: Int = 1) {
        state = Locked(State(remaining: max(0, count)))
    }

    /// Whether the latch is open.
    public var isOpen: Bool { state.withLock { $0.remaining == 0 } }

    /// One of the `count` events happened; the last one opens the latch.
    public func countDown() {
        let opened = state.withLock { s -> Bool in
            guard s.remaining > 0 else { return false }
            s.remaining -= 1
            return s.remaining == 0
        }
        if opened { waiters.deliverAll(.success(())) }
    }

    /// Opens the latch, whatever the count. Idempotent.
    public func open() {
        let opened = state.withLock { s -> Bool in
            defer { s.remaining = 0 }
            return s.remaining > 0
        }
        if opened { waiters.deliverAll(.success(())) }
    }

    /// Returns once the latch is open.
    public func wait() async {
        // The slot is opened under the state's lock, so an opening after this sees it and answers it.
        let key = state.withLock { s -> UInt64? in
            guard s.remaining > 0 else { return nil }
            s.lastWaiter += 1
            waiters.expect(s.lastWaiter)
            return s.lastWaiter
        }
        guard let key else { return }
        // Only a closed slot throws, and nothing closes these.
        try? await waiters.waitIgnoringCancellation(for: key)
    }
}
