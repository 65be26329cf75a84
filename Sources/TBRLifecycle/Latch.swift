import Synchronization
import TBRFoundation

/// A one-shot latch: ``wait()`` returns once ``countDown()`` was called `count` times, or ``open()``.
final class Latch: Sendable {
    private struct State {
        var remaining: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(State(remaining: max(0, count)))
    }

    func countDown() {
        let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard s.remaining > 0 else { return [] }
            s.remaining -= 1
            guard s.remaining == 0 else { return [] }
            defer { s.waiters = [] }
            return s.waiters
        }
        ready.forEach { $0.resume() }
    }

    func open() {
        let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.remaining = 0
            defer { s.waiters = [] }
            return s.waiters
        }
        ready.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.remaining == 0 { return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }
}
