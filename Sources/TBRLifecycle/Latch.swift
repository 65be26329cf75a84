import Synchronization
import TBRFoundation

/// A one-shot latch: ``wait()`` returns once ``countDown()`` was called `count` times, or ``open()``.
final class Latch: Sendable {
    private struct State {
        var remaining: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(remaining: max(0, count)))
    }

    /// A critical section of ``state`` that ThreadSanitizer can order (see TBRFoundation's ThreadSanitizer).
    private func locked<R>(_ body: (inout State) -> R) -> R {
        state.withLock { s in ThreadSanitizer.locked(self) { body(&s) } }
    }

    func countDown() {
        let ready = locked { s -> [CheckedContinuation<Void, Never>] in
            guard s.remaining > 0 else { return [] }
            s.remaining -= 1
            guard s.remaining == 0 else { return [] }
            defer { s.waiters = [] }
            return s.waiters
        }
        ready.forEach { $0.resume() }
    }

    func open() {
        let ready = locked { s -> [CheckedContinuation<Void, Never>] in
            s.remaining = 0
            defer { s.waiters = [] }
            return s.waiters
        }
        ready.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = locked { s -> Bool in
                if s.remaining == 0 { return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }
}
