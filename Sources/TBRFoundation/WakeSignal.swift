import Synchronization
import TBRFoundation

/// Wakes one waiting task: ``signal()`` resumes the current ``wait()``, or the next one if nobody waits.
/// Signals do not accumulate (a pending one is a flag). Waiting ends early when the task is cancelled.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Wakes the waiter, or leaves the signal pending for the next ``wait()``.
    func signal() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiter else {
                s.pending = true
                return nil
            }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once if a signal is pending) or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.pending || Task.isCancelled {
                        s.pending = false
                        return true
                    }
                    s.waiter = c
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }

    /// Returns at `until` on `clock` (never, when nil), when signalled, or when the task is cancelled:
    /// how the drivers of the sans-IO machines sleep until their machine's next wake-up.
    func wait(until: ContinuousClock.Instant?, clock: any TBRClock) async {
        await withTaskGroup(of: Void.self) { group in
            if let until { group.addTask { try? await clock.sleep(until: until) } }
            group.addTask { await self.wait() }
            _ = await group.next()
            group.cancelAll()
        }
    }
}
