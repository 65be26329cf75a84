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
    public func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        let message = try OutgoingMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments)
        return try await call(message, timeout: timeout, what: "\(interface?.rawValue ?? "")\(interface == nil ? "" : ".")\(member) on \(destination)").body
    }

    /// Sends `message` and waits for its reply.
    func call(_ message: OutgoingMessage, timeout: Duration, what: @autoclosure () -> String) async throws -> Message {
        try Task.checkCancellation()
        try await acquireCallSlot()
        let serial: UInt32
        do {
            serial = try send(message)
        } catch {
            releaseCallSlot()
            throw error
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, any Error>) in
                let item = DispatchWorkItem { [handle] in
                    handle.owner?.assumeIsolated { $0.failCall(serial, with: DBusError(.noReply, "no reply within \(timeout)")) }
                }
                pendingCalls[serial] = PendingCall(continuation: continuation, timeout: item)
                let (seconds, attoseconds) = timeout.components
                let nanos = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
                executor.queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanos, 0)), execute: item)
            }
        } onCancel: { [handle] in
            handle.onQueue { $0.failCall(serial, with: CancellationError()) }
        }
    }

    func failCall(_ serial: UInt32, with error: any Error) {
        guard let call = pendingCalls.removeValue(forKey: serial) else { return }
        call.timeout?.cancel()
        call.continuation.resume(throwing: error)
        releaseCallSlot()
    }

    // MARK: in-flight limit

    /// Waits until fewer than ``maxCallsInFlight`` calls await replies, first come first served.
    private func acquireCallSlot() async throws {
        if slotWaiters.isEmpty && pendingCalls.count + reservedSlots < maxCallsInFlight { return }
        let id = nextSlotWaiterID
        nextSlotWaiterID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                slotWaiters.append((id, c))
            }
        } onCancel: { [handle] in
            handle.onQueue { connection in
                guard let i = connection.slotWaiters.firstIndex(where: { $0.id == id }) else { return }
                connection.slotWaiters.remove(at: i).continuation.resume(throwing: CancellationError())
            }
        }
        // A woken waiter holds a reserved slot until it has sent.
        reservedSlots -= 1
    }

    /// Called when a call ends (reply, error, timeout, cancellation): wakes the oldest waiter if a slot is free.
    func releaseCallSlot() {
        while !slotWaiters.isEmpty && pendingCalls.count + reservedSlots < maxCallsInFlight {
            reservedSlots += 1
            slotWaiters.removeFirst().continuation.resume()
        }
    }

    /// Sends a method call without waiting for (or asking for) a reply.
    public func callNoReply(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName, arguments: [DBusValue] = []
    ) throws(DBusError) {
        let message = try OutgoingMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments, noReply: true)
        _ = try send(message)
    }

    /// Emits a signal from `path`.
    /// - Parameter destination: a unicast destination, or nil to broadcast.
    public func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws(DBusError) {
        let message = try OutgoingMessage.signal(
            path: path, interface: interface, member: member, body: arguments, destination: destination)
        _ = try send(message)
    }

    /// Calls a method of the bus daemon itself (`org.freedesktop.DBus`).
    func callBus(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await call(destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
                       member: member, arguments: arguments)
    }
}
