internal import CDBus
internal import Dispatch
public import TBRFoundation

/// A connection to a D-Bus message bus: method calls, signals, names and exported objects.
///
/// Each connection is a private libdbus connection driven by Dispatch sources for libdbus's watches and
/// timeouts (no polling loop). The actor runs on the same serial queue as those sources, so all libdbus
/// calls for the connection happen on one queue. Close it with ``close()``; dropping the last reference
/// closes it too.
public actor Connection {
    let executor: DispatchQueueExecutor
    let handle: ConnectionHandle
    let logger: Logger

    /// The unique name the bus assigned, e.g. `:1.42`.
    public nonisolated let uniqueName: String
    /// The bus this connection is on.
    public nonisolated let bus: Bus

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    // MARK: state (actor-isolated)
    /// Calls awaiting replies (shared with callers' threads).
    let registry: CallRegistry
    /// At most this many calls await replies at once; more wait their turn here instead of being refused
    /// by the bus (`LimitsExceeded`: dbus-daemon allows 128 pending replies per connection by default).
    public nonisolated let maxCallsInFlight: Int
    var subscriptions: [UInt64: Subscription] = [:]
    var nextSubscriptionID: UInt64 = 1
    var trackedOwners: [String: TrackedOwner] = [:]
    var objects: [ObjectPath: ExportedObject] = [:]
    var methodTasks: [UInt64: Task<Void, Never>] = [:]
    var nextMethodTaskID: UInt64 = 1
    var isOpen = true

    /// Connects to `bus` and registers with it.
    /// - Throws: ``DBusError`` if the bus cannot be reached or refuses the connection.
    /// - Parameter maxCallsInFlight: calls awaiting replies at once; further calls queue in order.
    public init(bus: Bus, logger: Logger = .disabled, maxCallsInFlight: Int = 128) async throws(DBusError) {
        let executor = DispatchQueueExecutor(label: "tbrd.dbus.\(bus)")
        let opened: Result<ConnectionHandle, DBusError> = await withCheckedContinuation { cont in
            executor.queue.async {
                do throws(DBusError) {
                    cont.resume(returning: .success(try ConnectionHandle.open(bus, queue: executor.queue)))
                } catch {
                    cont.resume(returning: .failure(error))
                }
            }
        }
        let handle = try opened.get()
        self.executor = executor
        self.handle = handle
        self.bus = bus
        self.logger = logger
        self.maxCallsInFlight = max(1, maxCallsInFlight)
        self.registry = CallRegistry(maxInFlight: max(1, maxCallsInFlight), queue: executor.queue)
        self.uniqueName = await withCheckedContinuation { cont in
            executor.queue.async { cont.resume(returning: handle.uniqueName) }
        }
        installEventSources()
    }

    deinit {
        let handle = self.handle
        handle.queue.async { handle.close() }
    }

    /// Whether the connection is still open (not closed and not disconnected by the bus).
    public var isConnected: Bool { isOpen && dbus_connection_get_is_connected(handle.raw) != 0 }

    /// Closes the connection: outstanding calls fail with `Disconnected`, signal streams finish,
    /// running method handlers are cancelled, exported objects and names disappear. Idempotent.
    public func close() {
        shutDown(reason: .disconnected("the connection was closed"))
        handle.close()
    }

    /// Fails everything that waits on this connection. Called on close and on `Disconnected`.
    func shutDown(reason: DBusError) {
        guard isOpen else { return }
        isOpen = false
        registry.close(with: reason)
        let subs = subscriptions
        subscriptions.removeAll()
        for (_, sub) in subs { sub.continuation.finish(throwing: reason) }
        for (_, task) in methodTasks { task.cancel() }
        methodTasks.removeAll()
        objects.removeAll()
        removeEventSources()
    }

    /// Sends from the actor (replies, errors).
    func send(_ message: OutgoingMessage) throws(DBusError) -> UInt32 {
        guard isOpen else { throw .disconnected() }
        return try handle.send(message)
    }
}
