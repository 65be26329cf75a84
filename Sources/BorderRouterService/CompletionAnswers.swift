import TBRFoundation

/// Where `complete` calls wait for their session's outcomes: an answer may come before its caller
/// waits (it is kept), and a caller that is cancelled stops waiting (its later answer is dropped).
final class CompletionAnswers: Sendable {
    private enum Slot {
        case arrived([CommissioningOutcome])
        case waiting(CheckedContinuation<[CommissioningOutcome], any Error>)
    }

    private let slots = Locked<[CompletionWaiter: Slot]>([:])

    /// Delivers `outcomes` to `waiter` (now, or when it waits).
    func deliver(_ outcomes: [CommissioningOutcome], to waiter: CompletionWaiter) {
        let waiting = slots.withLock { s -> CheckedContinuation<[CommissioningOutcome], any Error>? in
            if case .waiting(let c)? = s[waiter] {
                s[waiter] = nil
                return c
            }
            s[waiter] = .arrived(outcomes)
            return nil
        }
        waiting?.resume(returning: outcomes)
    }

    /// Waits for `waiter`'s answer.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func wait(for waiter: CompletionWaiter) async throws -> [CommissioningOutcome] {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<[CommissioningOutcome], any Error>) in
                let ready = slots.withLock { s -> [CommissioningOutcome]? in
                    if case .arrived(let outcomes)? = s[waiter] {
                        s[waiter] = nil
                        return outcomes
                    }
                    s[waiter] = .waiting(c)
                    return nil
                }
                if let ready { c.resume(returning: ready) } else if Task.isCancelled { cancel(waiter) }
            }
        } onCancel: {
            cancel(waiter)
        }
    }

    private func cancel(_ waiter: CompletionWaiter) {
        let waiting = slots.withLock { s -> CheckedContinuation<[CommissioningOutcome], any Error>? in
            guard case .waiting(let c)? = s.removeValue(forKey: waiter) else { return nil }
            return c
        }
        waiting?.resume(throwing: CancellationError())
    }
}
