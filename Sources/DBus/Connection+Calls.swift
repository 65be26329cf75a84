import TBRFoundation
internal import Dispatch
import Synchronization

extension Connection {
    /// The timeout used when a call gives none: 25 s, libdbus's default.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Calls `member` and returns the reply's arguments.
    ///
    /// The caller enters the connection's queue once, where the message is built and sent (or queued
    /// for an in-flight slot, see ``maxCallsInFlight``); the reply completes the call on the queue.
    /// A caller alone enters with `queue.sync`, one among other calls in flight with `queue.async`.
    ///
    /// - Parameters:
    ///   - destination: the bus name to call (a well-known or unique name).
    ///   - path: the object.
    ///   - interface: the interface, or nil to let the peer pick by member name.
    ///   - member: the method.
    ///   - arguments: the arguments, in order.
    ///   - timeout: how long to wait for the reply; on expiry the call fails with `NoReply`.
    /// - Throws: ``DBusError`` for an error reply (its name and message as sent), `NoReply` on timeout,
    ///   `Disconnected` if the connection closes; `CancellationError` if the task is cancelled.
    public nonisolated func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        try Task.checkCancellation()
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let ticket = CallTicket()
        let othersInFlight = callsInFlight.wrappingAdd(1, ordering: .relaxed).oldValue > 0
        defer {
            callsInFlight.subtract(1, ordering: .relaxed)
            ThreadSanitizer.acquire(ticket)
        }
        let reply = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, any Error>) in
                let start: @Sendable (isolated Connection) -> Void = { connection in
                    connection.calls.start(ticket, deadline: deadline, continuation: continuation) { () throws(DBusError) in
                        try OutgoingMessage.methodCall(
                            destination: destination, path: path, interface: interface, member: member, body: arguments)
                    }
                }
                // Alone, the caller usually finds the queue idle, and queue.sync sends on this thread without
                // a switch; with other calls in flight the queue is usually busy, and queuing the start
                // does not block this thread until it is free. Either way the start runs on the queue.
                if othersInFlight {
                    handle.queue.async { self.assumeIsolated(start) }
                } else {
                    onQueue(start)
                }
            }
        } onCancel: {
            ticket.cancel()
            handle.onQueue { $0.calls.cancel(ticket) }
        }
        return reply.body
    }

    /// Sends a method call without waiting for (or asking for) a reply. The message is queued in
    /// libdbus, in order with everything else sent on this connection, when this returns.
    public nonisolated func callNoReply(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName, arguments: [DBusValue] = []
    ) throws(DBusError) {
        try send { () throws(DBusError) in
            try OutgoingMessage.methodCall(
                destination: destination, path: path, interface: interface, member: member, body: arguments, noReply: true)
        }
    }

    /// Emits a signal from `path`. The signal is queued in libdbus, in order with everything else sent
    /// on this connection, when this returns.
    /// - Parameter destination: a unicast destination, or nil to broadcast.
    public nonisolated func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws(DBusError) {
        try send { () throws(DBusError) in
            try OutgoingMessage.signal(path: path, interface: interface, member: member, body: arguments, destination: destination)
        }
    }

    /// Builds a message with `build` and sends it, on the queue, entering it from whatever thread calls.
    private nonisolated func send(_ build: @Sendable () throws(DBusError) -> OutgoingMessage) throws(DBusError) {
        try onQueue { connection in
            Result { () throws(DBusError) in _ = try connection.send(build()) }
        }.get()
    }

    /// Runs `body` on the connection's queue, isolated to the actor, from any thread: inline when
    /// already there, otherwise entering the queue with ``ConnectionHandle/sync(_:)``.
    nonisolated func onQueue<T: Sendable>(_ body: (isolated Connection) -> T) -> T {
        handle.sync { assumeIsolated(body) }
    }

    /// Calls a method of the bus daemon itself (`org.freedesktop.DBus`).
    nonisolated func callBus(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await call(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                       member: member, arguments: arguments)
    }
}
