import TBRFoundation
internal import Dispatch
import Synchronization

/// The method calls of one connection that await replies, and those waiting for an in-flight slot.
///
/// Part of the `Connection` actor's state (not `Sendable`, so the compiler keeps it there) and so only
/// used on the connection's queue: callers enter the queue to start a call, and replies, expiry and
/// cancellation are handled there. A call is registered under its serial right after libdbus sent it;
/// replies are dispatched on the same queue, so a reply always finds its call.
///
/// At most `maxInFlight` calls await replies; later ones wait in FIFO order and are sent as replies free
/// their slots, so a busy client queues instead of hitting the bus's per-connection limit
/// (`LimitsExceeded`). A call's deadline covers its wait for a slot too.
final class CallRegistry {
    /// The task waiting for a call's outcome.
    private struct Caller {
        let ticket: CallTicket
        let deliver: @Sendable (Result<Message, any Error>) -> Void

        func resume(with result: Result<Message, any Error>) {
            ThreadSanitizer.release(ticket)
            deliver(result)
        }

        func fail(_ error: any Error) { resume(with: .failure(error)) }
    }

    private struct Pending {
        let caller: Caller
        let deadline: ContinuousClock.Instant
    }

    private struct Waiting {
        let caller: Caller
        let message: OutgoingMessage
        let deadline: ContinuousClock.Instant
    }

    private let handle: ConnectionHandle
    private let maxInFlight: Int
    private let timer: QueueTimer
    private var isOpen = true
    private var pending: [UInt32: Pending] = [:]
    private var serials: [ObjectIdentifier: UInt32] = [:]
    private var waiting: [Waiting] = []
    private var waitingHead = 0
    private var armed: ContinuousClock.Instant?

    /// A registry sending through `handle`; its expiry timer calls ``expire()`` on the owning connection.
    init(maxInFlight: Int, handle: ConnectionHandle) {
        self.handle = handle
        self.maxInFlight = max(1, maxInFlight)
        timer = QueueTimer(queue: handle.queue) { [handle] in
            dispatchPrecondition(condition: .onQueue(handle.queue))
            handle.owner?.assumeIsolated { $0.calls.expire() }
        }
    }

    deinit { timer.cancel() }

    /// Starts a call: builds its message with `build` and sends it now if a slot is free (and nobody
    /// waits before it), otherwise queues it (calls leave the queue in the order they entered it).
    /// `deliver` gets the reply, or the error that ends the call (from `build` too: invalid arguments are
    /// refused before anything is sent), exactly once, on the queue. The caller calls
    /// `ThreadSanitizer.acquire(ticket)` once it has the result.
    func start(
        _ ticket: CallTicket, deadline: ContinuousClock.Instant, deliver: @escaping @Sendable (Result<Message, any Error>) -> Void,
        build: () throws(DBusError) -> OutgoingMessage
    ) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        let caller = Caller(ticket: ticket, deliver: deliver)
        guard isOpen else { return caller.fail(DBusError.disconnected()) }
        guard !ticket.isCancelled else { return caller.fail(CancellationError()) }
        let message: OutgoingMessage
        do { message = try build() } catch { return caller.fail(error) }
        if waitingHead == waiting.count && pending.count < maxInFlight {
            send(caller, message, deadline: deadline)
        } else {
            waiting.append(Waiting(caller: caller, message: message, deadline: deadline))
            arm(for: deadline)
        }
    }

    /// Delivers a reply; false if no call waits for `replySerial` (late, cancelled or not ours).
    func complete(replySerial: UInt32, with result: Result<Message, any Error>) -> Bool {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard let call = pending.removeValue(forKey: replySerial) else { return false }
        serials[ObjectIdentifier(call.caller.ticket)] = nil
        call.caller.resume(with: result)
        sendWaiting()
        return true
    }

    /// Ends the call of `ticket` with `CancellationError`, wherever it is. A call that has not started
    /// yet sees the ticket's flag when it does; one that has ended is left alone.
    func cancel(_ ticket: CallTicket) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        if let serial = serials.removeValue(forKey: ObjectIdentifier(ticket)), let call = pending.removeValue(forKey: serial) {
            call.caller.fail(CancellationError())
            sendWaiting()
        } else if let i = waiting[waitingHead...].firstIndex(where: { $0.caller.ticket === ticket }) {
            waiting.remove(at: i).caller.fail(CancellationError())
        }
    }

    /// Fails every call, sent or waiting, with `error`; later calls fail at once.
    func close(with error: DBusError) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        isOpen = false
        timer.cancel()
        let callers = pending.values.map(\.caller) + waiting[waitingHead...].map(\.caller)
        pending.removeAll()
        serials.removeAll()
        waiting.removeAll()
        waitingHead = 0
        for caller in callers { caller.fail(error) }
    }

    /// Timer handler: fails the calls, sent or waiting, whose deadline has passed, with `NoReply`.
    func expire() {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard isOpen else { return }
        let now = ContinuousClock.now
        let noReply = DBusError.callTimedOut
        var next: ContinuousClock.Instant?
        for (serial, call) in pending {
            if call.deadline <= now {
                pending[serial] = nil
                serials[ObjectIdentifier(call.caller.ticket)] = nil
                call.caller.fail(noReply)
            } else if next.map({ call.deadline < $0 }) ?? true {
                next = call.deadline
            }
        }
        var stillWaiting: [Waiting] = []
        for call in waiting[waitingHead...] {
            if call.deadline <= now {
                call.caller.fail(noReply)
                continue
            }
            stillWaiting.append(call)
            if next.map({ call.deadline < $0 }) ?? true { next = call.deadline }
        }
        waiting = stillWaiting
        waitingHead = 0
        armed = nil
        if let next { arm(for: next) }
        sendWaiting()
    }

    /// Sends waiting calls while slots are free.
    private func sendWaiting() {
        while waitingHead < waiting.count && pending.count < maxInFlight {
            let call = waiting[waitingHead]
            waitingHead += 1
            if call.caller.ticket.isCancelled {
                call.caller.fail(CancellationError())
            } else {
                send(call.caller, call.message, deadline: call.deadline)
            }
        }
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
        } else if waitingHead > 64 && waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    private func send(_ caller: Caller, _ message: OutgoingMessage, deadline: ContinuousClock.Instant) {
        let serial: UInt32
        do {
            serial = try handle.send(message)
        } catch {
            return caller.fail(error)
        }
        pending[serial] = Pending(caller: caller, deadline: deadline)
        serials[ObjectIdentifier(caller.ticket)] = serial
        arm(for: deadline)
    }

    /// Makes the timer fire by `deadline` at the latest.
    private func arm(for deadline: ContinuousClock.Instant) {
        guard armed.map({ deadline < $0 }) ?? true else { return }
        armed = deadline
        timer.arm(at: deadline)
    }
}

/// One call's identity and cancellation flag, shared by the caller's task (whose cancellation handler
/// may run on any thread) and the connection's queue.
final class CallTicket: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Whether the caller's task was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the call cancelled; the caller then asks the queue to end it.
    func cancel() { cancelled.store(true, ordering: .releasing) }
}
