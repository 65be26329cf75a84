internal import CDBus
internal import Dispatch

/// Owns one private libdbus connection and confines it to one serial queue.
///
/// Every use of ``raw``, every libdbus callback and every stored property below happens on ``queue``:
/// the methods assert it with `dispatchPrecondition`, and code that starts elsewhere enters the queue
/// through ``sync(_:)`` or `queue.async`. See "The DBus layer" in docs/architecture.md.
final class ConnectionHandle: @unchecked Sendable {
    // @unchecked: the mutable state (`isClosed`, `owner`) and `raw` are only touched on `queue`, which
    // the accessors assert; `queueKey` and `queue` are immutable and thread-safe.
    let raw: OpaquePointer
    let queue: DispatchQueue
    /// Marks `queue`, so ``sync(_:)`` can tell whether it already runs there.
    private let queueKey = DispatchSpecificKey<Bool>()
    /// The actor that receives incoming messages; nil once it is gone or the handle is closed.
    weak var owner: Connection?
    private(set) var isClosed = false

    private init(raw: OpaquePointer, queue: DispatchQueue) {
        self.raw = raw
        self.queue = queue
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Opens and registers a private connection to `bus` (``LibDBus/openPrivate(_:)``). Blocking; called
    /// on `queue` before the connection's watches exist.
    static func open(_ bus: Bus, queue: DispatchQueue) throws(DBusError) -> ConnectionHandle {
        dispatchPrecondition(condition: .onQueue(queue))
        return ConnectionHandle(raw: try LibDBus.openPrivate(bus), queue: queue)
    }

    /// Runs `body` on the queue and returns its result: inline when already there, otherwise with
    /// `queue.sync`, which runs `body` on the calling thread once the queue is free (no thread switch
    /// when it is idle). The queue never waits for anything but libdbus's non-blocking socket I/O, so
    /// the wait is short and cannot deadlock.
    func sync<T>(_ body: () -> T) -> T {
        if DispatchQueue.getSpecific(key: queueKey) == true { return body() }
        return queue.sync(execute: body)
    }

    /// Hands `message` to libdbus, which writes it at once if the socket takes it and otherwise keeps it
    /// and enables its write watch. On `queue`.
    /// - Throws: `Disconnected` once the handle is closed; `NoMemory` if libdbus cannot queue it.
    func send(_ message: OutgoingMessage) throws(DBusError) -> UInt32 {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { throw .disconnected() }
        var serial: UInt32 = 0
        guard LibDBus.c.connection_send(raw, message.raw, &serial) != 0 else {
            throw DBusError(.noMemory, "libdbus could not queue the message")
        }
        return serial
    }

    /// Runs `body` on the owning connection's executor later, if the connection still exists.
    func onQueue(_ body: @escaping @Sendable (isolated Connection) -> Void) {
        queue.async { [self] in
            guard let owner else { return }
            owner.assumeIsolated { body($0) }
        }
    }

    /// Whether libdbus still considers the connection connected. On `queue`.
    var isConnected: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return !isClosed && LibDBus.c.connection_get_is_connected(raw) != 0
    }

    /// The unique name the bus gave this connection. On `queue`.
    var uniqueName: String {
        dispatchPrecondition(condition: .onQueue(queue))
        return LibDBus.c.bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Detaches the event sources and the filter, flushes, and closes the connection. Idempotent; on
    /// `queue`, never from inside a libdbus callback (use ``scheduleClose()`` there).
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        isClosed = true
        removeEventSources()
        if LibDBus.c.connection_get_is_connected(raw) != 0 { LibDBus.c.connection_flush(raw) }
        LibDBus.c.connection_close(raw)
    }

    /// Closes the connection in a later job on `queue`: for callers inside libdbus's dispatch (the filter)
    /// and for `Connection`'s deinit, which may run there.
    func scheduleClose() {
        queue.async { [self] in close() }
    }

    deinit {
        // The connection closed the handle on the queue before letting it go, which removed the sources
        // and the callbacks; releasing the last reference frees libdbus's state.
        LibDBus.c.connection_unref(raw)
    }
}

/// libdbus's own error struct, renamed so it does not collide with ours.
typealias DBusError_C = CDBus.DBusError
