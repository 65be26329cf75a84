import TBRFoundation

/// The one-at-a-time turn to commission: python-matter-server's SDK controller holds one
/// commissioning lock (`_commissioning_lock` in `chip/ChipDeviceCtrl.py`), so commissionings from any
/// client run one after another, in the order they asked. ``enter()`` waits for the turn (first come,
/// first served); ``leave()`` hands it to the next. A waiter whose task is cancelled leaves the line.
final class CommissioningLine: Sendable {
    private struct State {
        var busy = false
        var waiting: [(id: UInt64, resume: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// How many wait for their turn (not counting the one under way).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits for the turn.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func enter() async throws {
        let id = state.withLock { s -> UInt64? in
            guard s.busy else {
                s.busy = true
                return nil
            }
            s.nextID += 1
            return s.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { s -> Bool in
                    if Task.isCancelled { return true }
                    s.waiting.append((id, c))
                    return false
                }
                if cancelled { c.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let c = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                guard let i = s.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return s.waiting.remove(at: i).resume
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// Ends the turn: the next in line, if any, takes it.
    func leave() {
        let next = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard !s.waiting.isEmpty else {
                s.busy = false
                return nil
            }
            return s.waiting.removeFirst().resume
        }
        next?.resume()
    }
}
