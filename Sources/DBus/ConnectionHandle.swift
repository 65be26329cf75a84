internal import CDBus
internal import Dispatch

/// Owns one private libdbus connection. Confined to its queue: every use of ``raw`` happens there.
final class ConnectionHandle: @unchecked Sendable {
    // @unchecked: `raw` is only dereferenced on `queue` (enforced by the Connection actor's executor
    // and by the watch/timeout sources, which target the same queue); `owner` is a weak reference.
    let raw: OpaquePointer
    let queue: DispatchQueue
    /// The actor that receives incoming messages; nil once it is gone.
    weak var owner: Connection?
    private(set) var isClosed = false

    private init(raw: OpaquePointer, queue: DispatchQueue) {
        self.raw = raw
        self.queue = queue
    }

    /// Opens and registers a private connection to `bus`. Blocking; called on `queue` before the
    /// connection's watches exist.
    static func open(_ bus: Bus, queue: DispatchQueue) throws(DBusError) -> ConnectionHandle {
        dispatchPrecondition(condition: .onQueue(queue))
        _ = dbus_threads_init_default()
        var err = tbrd_dbus_error_init()
        defer { dbus_error_free(&err) }
        let conn: OpaquePointer?
        switch bus {
        case .system: conn = dbus_bus_get_private(DBUS_BUS_SYSTEM, &err)
        case .session: conn = dbus_bus_get_private(DBUS_BUS_SESSION, &err)
        case .address(let address):
            let c = dbus_connection_open_private(address, &err)
            if let c, dbus_bus_register(c, &err) == 0 {
                dbus_connection_close(c)
                dbus_connection_unref(c)
                conn = nil
            } else {
                conn = c
            }
        }
        guard let conn else { throw Self.error(from: err, context: "cannot connect to the \(bus) bus") }
        dbus_connection_set_exit_on_disconnect(conn, 0)
        return ConnectionHandle(raw: conn, queue: queue)
    }

    /// Converts a filled-in libdbus `DBusError` into ours.
    static func error(from err: DBusError_C, context: String) -> DBusError {
        let name = err.name.flatMap { try? ErrorName(String(cString: $0)) } ?? .failed
        let message = err.message.map { String(cString: $0) } ?? ""
        return DBusError(name, message.isEmpty ? context : "\(context): \(message)")
    }

    /// Queues `message` for sending, from any thread (libdbus locks the connection itself). Callers
    /// check that the connection is open first (``CallRegistry/isOpen`` or the actor's state).
    func send(_ message: OutgoingMessage) throws(DBusError) -> UInt32 {
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else {
            throw DBusError(.noMemory, "libdbus could not queue the message")
        }
        return serial
    }

    /// Runs `body` on the owning connection's executor, if the connection still exists.
    func onQueue(_ body: @escaping @Sendable (isolated Connection) -> Void) {
        queue.async { [self] in
            guard let owner else { return }
            owner.assumeIsolated { body($0) }
        }
    }

    /// The unique name the bus gave this connection.
    var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Flushes, closes and releases the connection. Idempotent; on `queue`.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        isClosed = true
        if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
        dbus_connection_close(raw)
    }

    deinit {
        // Sources and filters were removed by close(); releasing the last reference frees libdbus's state.
        dbus_connection_unref(raw)
    }
}

/// libdbus's own error struct, renamed so it does not collide with ours.
typealias DBusError_C = CDBus.DBusError
