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
                    connection.calls.start(ticket, deadline: deadline, deliver: { continuation.resume(with: $0) }) { () throws(DBusError) in
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

    /// Sends `calls` one after the other in one turn of the connection's queue and waits for every reply.
    ///
    /// The bus delivers a connection's messages to a peer in the order they were sent, so a peer that
    /// handles its messages one at a time (otbr-agent does) answers them in this order, each seeing the
    /// effects of the ones before: a read followed by a command costs one round trip instead of two,
    /// and the read still sees the state before the command.
    /// - Parameters:
    ///   - calls: the calls, in the order they must reach their peers.
    ///   - timeout: how long to wait for each reply; an expired call fails with `NoReply`.
    /// - Returns: each call's reply arguments or error, in the order of `calls` (one failing does not
    ///   fail the others).
    /// - Throws: `CancellationError` if the task is cancelled (calls not yet answered end with it).
    public nonisolated func callInOrder(_ calls: [OutgoingCall], timeout: Duration = Connection.defaultTimeout) async throws
        -> [Result<[DBusValue], any Error>]
    {
        try Task.checkCancellation()
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let tickets = calls.map { _ in CallTicket() }
        // One slot per call, by its index: delivered once on the queue, awaited once here, in either order.
        let replies = ReplySlots<Int, Message>()
        for i in calls.indices { replies.expect(i) }
        callsInFlight.add(calls.count, ordering: .relaxed)
        defer { callsInFlight.subtract(calls.count, ordering: .relaxed) }
        let results = await withTaskCancellationHandler {
            onQueue { connection in
                for (i, call) in calls.enumerated() {
                    connection.calls.start(tickets[i], deadline: deadline, deliver: { replies.deliver($0, to: i) }) { () throws(DBusError) in
                        try OutgoingMessage.methodCall(
                            destination: call.destination, path: call.path, interface: call.interface, member: call.member,
                            body: call.arguments)
                    }
                }
            }
            var results: [Result<[DBusValue], any Error>] = []
            for (i, ticket) in tickets.enumerated() {
                let result: Result<Message, any Error>
                do { result = .success(try await replies.wait(for: i)) } catch { result = .failure(error) }
                ThreadSanitizer.acquire(ticket)
                results.append(result.map(\.body))
            }
            return results
        } onCancel: {
            for ticket in tickets { ticket.cancel() }
            handle.onQueue { connection in for ticket in tickets { connection.calls.cancel(ticket) } }
        }
        try Task.checkCancellation()
        return results
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

/// One method call of ``Connection/callInOrder(_:timeout:)``: where it goes and what it carries.
public struct OutgoingCall: Sendable {
    public var destination: BusName
    public var path: ObjectPath
    public var interface: InterfaceName?
    public var member: MemberName
    public var arguments: [DBusValue]

    public init(destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName, arguments: [DBusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
