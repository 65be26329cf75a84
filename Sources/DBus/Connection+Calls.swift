internal import Dispatch

extension Connection {
    /// The timeout used when a call gives none: 25 s, libdbus's default.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Calls `member` and returns the reply's arguments.
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
        let message = try OutgoingMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments)
        return try await call(message, timeout: timeout).body
    }

    /// Sends `message` and waits for its reply. Runs on the caller's thread: the message is sent
    /// directly (libdbus is thread-safe) and only the reply comes through the connection's queue.
    nonisolated func call(_ message: OutgoingMessage, timeout: Duration) async throws -> Message {
        try Task.checkCancellation()
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let token = registry.newToken()
        return try await withTaskCancellationHandler {
            try await registry.acquireSlot(token)
            return try await registry.awaitReply(token, deadline: deadline) { () throws(DBusError) in
                try handle.send(message)
            }
        } onCancel: {
            registry.cancel(token)
        }
    }

    /// Sends a method call without waiting for (or asking for) a reply.
    public nonisolated func callNoReply(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName, arguments: [DBusValue] = []
    ) throws(DBusError) {
        let message = try OutgoingMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments, noReply: true)
        guard registry.isOpen else { throw .disconnected() }
        _ = try handle.send(message)
    }

    /// Emits a signal from `path`.
    /// - Parameter destination: a unicast destination, or nil to broadcast.
    public nonisolated func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws(DBusError) {
        let message = try OutgoingMessage.signal(
            path: path, interface: interface, member: member, body: arguments, destination: destination)
        guard registry.isOpen else { throw .disconnected() }
        _ = try handle.send(message)
    }

    /// Calls a method of the bus daemon itself (`org.freedesktop.DBus`).
    nonisolated func callBus(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await call(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                       member: member, arguments: arguments)
    }
}
