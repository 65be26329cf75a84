internal import Dispatch
import Synchronization

/// The calls awaiting replies on one connection, shared by the callers' threads (which register and
/// send without hopping to the connection's queue) and the queue (which delivers replies, fires
/// timeouts and closes). One lock guards it all; continuations are always resumed outside the lock.
///
/// Each call is identified by a token from ``newToken()`` until it has a serial. At most
/// `maxInFlight` calls await replies; later ones wait in FIFO order for a slot, so a busy client
/// queues instead of hitting the bus's per-connection limit (`LimitsExceeded`).
final class CallRegistry: Sendable {
    private enum Phase {
        case new, waitingForSlot, reserved, pending(serial: UInt32), cancelled
    }

    private struct Entry {
        var token: UInt64
        var continuation: CheckedContinuation<Message, any Error>
        var deadline: ContinuousClock.Instant
    }

    private struct State {
        var open = true
        var nextToken: UInt64 = 1
        var phases: [UInt64: Phase] = [:]
        var pending: [UInt32: Entry] = [:]
        var waiters: [(token: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var waiterHead = 0
        var reserved = 0
        var armed: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let maxInFlight: Int
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    // nonisolated(unsafe): a DispatchSource is thread-safe; it is only scheduled under the lock.

    init(maxInFlight: Int, queue: DispatchQueue) {
        self.maxInFlight = maxInFlight
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .distantFuture)
        timer.activate()
        timer.setEventHandler { [weak self] in self?.expire() }
    }

    deinit { timer.cancel() }

    /// True until ``close(with:)``.
    var isOpen: Bool { state.withLock { $0.open } }

    /// A token for a new call.
    func newToken() -> UInt64 {
        state.withLock { s in
            defer { s.nextToken += 1 }
            s.phases[s.nextToken] = .new
            return s.nextToken
        }
    }

    /// Waits for an in-flight slot (immediately when one is free and nobody queues before us).
    func acquireSlot(_ token: UInt64) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = state.withLock { s in
                guard case .new? = s.phases[token] else {
                    s.phases[token] = nil
                    return .failure(CancellationError())
                }
                guard s.open else {
                    s.phases[token] = nil
                    return .failure(DBusError.disconnected())
                }
                if s.waiterHead == s.waiters.count && s.pending.count + s.reserved < maxInFlight {
                    s.reserved += 1
                    s.phases[token] = .reserved
                    return .success(())
                }
                s.phases[token] = .waitingForSlot
                s.waiters.append((token, c))
                return nil
            }
            if let outcome { c.resume(with: outcome) }
        }
    }

    /// Sends with `send` under the lock (so a reply cannot be handled before the call is registered)
    /// and waits for the reply until `deadline`.
    func awaitReply(_ token: UInt64, deadline: ContinuousClock.Instant, send: () throws(DBusError) -> UInt32) async throws -> Message {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Message, any Error>) in
            let failure: (any Error)? = state.withLock { s -> (any Error)? in
                s.reserved -= 1
                guard s.open else {
                    s.phases[token] = nil
                    return DBusError.disconnected()
                }
                guard case .reserved? = s.phases[token] else {
                    s.phases[token] = nil
                    return CancellationError()
                }
                let serial: UInt32
                do {
                    serial = try send()
                } catch {
                    s.phases[token] = nil
                    return error
                }
                s.pending[serial] = Entry(token: token, continuation: c, deadline: deadline)
                s.phases[token] = .pending(serial: serial)
                if s.armed.map({ deadline < $0 }) ?? true {
                    s.armed = deadline
                    timer.schedule(deadline: Self.dispatchTime(deadline))
                }
                return nil
            }
            if let failure {
                c.resume(throwing: failure)
                wakeWaiters()
            }
        }
    }

    /// Delivers a reply; false if no call waits for `replySerial` (late, cancelled or not ours).
    func complete(replySerial: UInt32, with result: Result<Message, any Error>) -> Bool {
        let entry = state.withLock { s -> Entry? in
            guard let e = s.pending.removeValue(forKey: replySerial) else { return nil }
            s.phases[e.token] = nil
            return e
        }
        guard let entry else { return false }
        entry.continuation.resume(with: result)
        wakeWaiters()
        return true
    }

    /// Cancels the call `token` wherever it is: waiting for a slot, about to send, or awaiting its reply.
    func cancel(_ token: UInt64) {
        enum Action { case none, waiter(CheckedContinuation<Void, any Error>), call(CheckedContinuation<Message, any Error>) }
        let action = state.withLock { s -> Action in
            switch s.phases[token] {
            case nil, .cancelled?:
                return .none
            case .new?, .reserved?:
                s.phases[token] = .cancelled
                return .none
            case .waitingForSlot?:
                s.phases[token] = nil
                guard let i = s.waiters[s.waiterHead...].firstIndex(where: { $0.token == token }) else { return .none }
                return .waiter(s.waiters.remove(at: i).continuation)
            case .pending(let serial)?:
                s.phases[token] = nil
                guard let e = s.pending.removeValue(forKey: serial) else { return .none }
                return .call(e.continuation)
            }
        }
        switch action {
        case .none: break
        case .waiter(let c): c.resume(throwing: CancellationError())
        case .call(let c):
            c.resume(throwing: CancellationError())
            wakeWaiters()
        }
    }

    /// Fails every call and waiter with `error`; later calls fail at once.
    func close(with error: DBusError) {
        let (calls, waiters) = state.withLock { s in
            s.open = false
            let calls = s.pending.values.map(\.continuation)
            let waiters = s.waiters[s.waiterHead...].map(\.continuation)
            s.pending.removeAll()
            s.waiters.removeAll()
            s.waiterHead = 0
            s.phases.removeAll()
            return (calls, waiters)
        }
        timer.cancel()
        for c in calls { c.resume(throwing: error) }
        for w in waiters { w.resume(throwing: error) }
    }

    /// Hands free slots to the oldest waiters.
    private func wakeWaiters() {
        let woken = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            var woken: [CheckedContinuation<Void, any Error>] = []
            while s.waiterHead < s.waiters.count && s.pending.count + s.reserved < maxInFlight {
                let w = s.waiters[s.waiterHead]
                s.waiterHead += 1
                s.reserved += 1
                s.phases[w.token] = .reserved
                woken.append(w.continuation)
            }
            if s.waiterHead > 64 && s.waiterHead * 2 > s.waiters.count {
                s.waiters.removeFirst(s.waiterHead)
                s.waiterHead = 0
            }
            return woken
        }
        for w in woken { w.resume() }
    }

    /// Timer handler on the connection's queue: fails the calls whose deadline has passed.
    private func expire() {
        let now = ContinuousClock.now
        let expired = state.withLock { s -> [CheckedContinuation<Message, any Error>] in
            var expired: [CheckedContinuation<Message, any Error>] = []
            var next: ContinuousClock.Instant?
            for (serial, e) in s.pending {
                if e.deadline <= now {
                    expired.append(e.continuation)
                    s.pending[serial] = nil
                    s.phases[e.token] = nil
                } else if next.map({ e.deadline < $0 }) ?? true {
                    next = e.deadline
                }
            }
            s.armed = next
            timer.schedule(deadline: next.map(Self.dispatchTime) ?? .distantFuture)
            return expired
        }
        for c in expired { c.resume(throwing: DBusError(.noReply, "no reply before the call's timeout")) }
        if !expired.isEmpty { wakeWaiters() }
    }

    private static func dispatchTime(_ instant: ContinuousClock.Instant) -> DispatchTime {
        let (s, a) = (instant - ContinuousClock.now).components
        let nanos = max(0, Int(clamping: s) &* 1_000_000_000 &+ Int(a / 1_000_000_000))
        return .now() + .nanoseconds(nanos)
    }
}
