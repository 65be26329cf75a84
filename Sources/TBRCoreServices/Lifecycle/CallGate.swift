import Synchronization
package import TBRFoundation

/// Counts the calls tbrd is serving (every adapter's), so that a shutdown can refuse new ones and let those in
/// flight finish (within a bound) before the connection closes under them.
package final class CallGate: Sendable {
    private struct State {
        var isOpen = true
        var inFlight = 0
        var served: UInt64 = 0
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    /// An open gate with no call in flight.
    package init() {}
    /// Those waiting until no call is in flight, answered when the last one leaves.
    private let idle = ReplySlots<UInt64, Void>()

    /// Calls being served now.
    package var inFlight: Int { state.withLock { $0.inFlight } }
    /// Calls admitted since tbrd started, by every adapter.
    package var served: UInt64 { state.withLock { $0.served } }

    /// Admits a call; false once the gate is closed.
    package func enter() -> Bool {
        state.withLock { s in
            guard s.isOpen else { return false }
            s.inFlight += 1
            s.served &+= 1
            return true
        }
    }

    /// A call admitted by ``enter()`` has been answered.
    package func leave() {
        let nowIdle = state.withLock { s -> Bool in
            s.inFlight -= 1
            return s.inFlight == 0
        }
        if nowIdle { idle.deliverAll(.success(())) }
    }

    /// Refuses every later call. Idempotent.
    package func close() { state.withLock { $0.isOpen = false } }

    /// Whether calls are still admitted (false once tbrd is stopping).
    package var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Waits until no call is in flight, for at most `limit` on `clock` (a ``TBRFoundation/TimeLimit``);
    /// returns early (false) when the task is cancelled.
    /// - Returns: whether every call finished.
    package func drained(within limit: Duration, clock: any TBRClock) async -> Bool {
        do {
            guard case .finished = try await TimeLimit.run(limit, clock: clock, { try await self.waitUntilIdle() }) else { return false }
            return true
        } catch {
            return false
        }
    }

    /// Returns when no call is in flight.
    /// - Throws: `CancellationError` when the task is cancelled first.
    private func waitUntilIdle() async throws {
        let id = state.withLock { s -> UInt64 in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        // Expected before the count is read: a last call leaving after the read answers the slot.
        idle.expect(id)
        guard inFlight > 0 else {
            idle.cancel(id)
            return
        }
        try await idle.wait(for: id)
    }
}
