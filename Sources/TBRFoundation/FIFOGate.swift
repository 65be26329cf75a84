/// A turn that one task holds at a time, handed on first come, first served: the one FIFO async gate.
/// A managed router's operations (so its ePSKc machine sees one input at a time) and matter-sim's
/// commissioning line (python-matter-server's one commissioning lock) take their turns in one.
///
/// ``withTurn(_:)`` waits for the turn, runs its body and hands the turn on, also when the body throws.
/// A task cancelled while it waits leaves the line and throws `CancellationError`; with
/// ``withTurnIgnoringCancellation(_:)`` it waits on, for work that must run once asked for.
/// The waits are ``ReplySlots`` (one slot a ticket), so nothing is resumed twice or under a lock.
public final class FIFOGate: Sendable {
    private struct State {
        var busy = false
        var line: [UInt64] = []
        var lastTicket: UInt64 = 0
    }

    private let state = Locked(State())
    private let turns = ReplySlots<UInt64, Void>()

    /// A free gate.
    public init() {}

    /// How many wait for their turn (not counting the holder).
    public var waitingCount: Int { state.withLock { $0.line.count } }

    /// Runs `body` in its turn.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (`body` did not run);
    ///   what `body` throws.
    public func withTurn<T: Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        try await enter(cancellable: true)
        defer { leave() }
        return try await body()
    }

    /// Runs `body` in its turn; a task cancelled while it waits still gets it.
    public func withTurnIgnoringCancellation<T: Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
    ) async -> T {
        // Only a cancelled wait throws, and this one is not cancellable.
        try? await enter(cancellable: false)
        defer { leave() }
        return await body()
    }

    private func enter(cancellable: Bool) async throws {
        let ticket = state.withLock { s -> UInt64? in
            guard s.busy else {
                s.busy = true
                return nil
            }
            s.lastTicket += 1
            s.line.append(s.lastTicket)
            turns.expect(s.lastTicket)
            return s.lastTicket
        }
        guard let ticket else { return }
        do {
            if cancellable {
                try await turns.wait(for: ticket)
            } else {
                try await turns.waitIgnoringCancellation(for: ticket)
            }
        } catch {
            // The turn never reached this ticket (a delivery to a closed slot fails, and the turn goes
            // to the next one): only the line forgets it.
            state.withLock { s in s.line.removeAll { $0 == ticket } }
            throw error
        }
    }

    private func leave() {
        while true {
            let next = state.withLock { s -> UInt64? in
                guard !s.line.isEmpty else {
                    s.busy = false
                    return nil
                }
                return s.line.removeFirst()
            }
            guard let next else { return }
            // A waiter cancelled meanwhile has closed its slot: the turn goes to the one after it.
            if turns.deliver(.success(()), to: next) { return }
        }
    }
}
