internal import CDBus
internal import Dispatch
public import TBRFoundation
import Synchronization

/// A connection to a D-Bus message bus: method calls, signals, names and exported objects.
///
/// Each connection is a private libdbus connection confined to one serial Dispatch queue, which is
/// also this actor's executor: every libdbus call for the connection (sends, watch and timeout
/// handling, dispatch, close) runs on that queue, whether it comes from the actor, from a Dispatch
/// source, or from a caller of a `nonisolated` method entering the queue. docs/architecture.md ("The
/// DBus layer") states the model. Close the connection with ``close()``; dropping the last reference
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

    /// Calls awaiting replies or an in-flight slot (actor state: callers reach it on the queue).
    let calls: CallRegistry
    /// At most this many calls await replies at once; more wait their turn here instead of being refused
    /// by the bus (`LimitsExceeded`: dbus-daemon allows 128 pending replies per connection by default).
    public nonisolated let maxCallsInFlight: Int
    /// Calls between their start and their end, counted by their callers: only to choose how a call
    /// enters the queue (see ``call(destination:path:interface:member:arguments:timeout:)``).
    nonisolated let callsInFlight = Atomic<Int>(0)

    // MARK: state (actor-isolated)
    var subscriptions: [UInt64: Subscription] = [:]
    var nextSubscriptionID: UInt64 = 1
    var owners = OwnerTable()
    var objects: [ObjectPath: ExportedObject] = [:]
    var methodTasks: [UInt64: Task<Void, Never>] = [:]
    var nextMethodTaskID: UInt64 = 1
    /// The call each handler task serves, by the task's id (``replied(to:)`` looks it up; rare).
    var methodTaskCalls: [UInt64: (sender: String, serial: UInt32)] = [:]
    /// Replies whose handler has returned, until its task hands them over (``flushDecidedReplies()``).
    nonisolated let decidedReplies = Locked<[UInt64: (MethodCall, Result<[DBusValue], any Error>)]>([:])
    /// Where method handlers start, in arrival order, after ``handleCallsInArrivalOrder()``.
    var arrivalOrder: SerialTaskExecutor?
    var isOpen = true

    /// Connects to `bus` and registers with it.
    /// - Throws: ``DBusError`` if the bus cannot be reached or refuses the connection.
    /// - Parameter maxCallsInFlight: calls awaiting replies at once; further calls queue in order.
    public init(bus: Bus, logger: Logger = .disabled, maxCallsInFlight: Int = 128) async throws(DBusError) {
        let executor = DispatchQueueExecutor(label: "tbrd.dbus.\(bus)")
        let opened: Result<(ConnectionHandle, String), DBusError> = await withCheckedContinuation { cont in
            executor.queue.async {
                let result = Result { () throws(DBusError) in
                    let handle = try ConnectionHandle.open(bus, queue: executor.queue)
                    return (handle, handle.uniqueName)
                }
                ThreadSanitizer.release(executor)
                cont.resume(returning: result)
            }
        }
        ThreadSanitizer.acquire(executor)
        let (handle, uniqueName) = try opened.get()
        self.executor = executor
        self.handle = handle
        self.bus = bus
        self.logger = logger
        self.uniqueName = uniqueName
        self.maxCallsInFlight = max(1, maxCallsInFlight)
        self.calls = CallRegistry(maxInFlight: max(1, maxCallsInFlight), handle: handle)
        // From here on the initialiser runs on the actor, that is on the queue.
        handle.installEventSources(owner: self)
    }

    /// Releasing the connection closes it like ``close()``: signal streams finish with `Disconnected`,
    /// running method handlers are cancelled, and the libdbus connection is closed in a job on the queue.
    /// No call can be waiting: a call in progress holds a reference to the connection (and the
    /// registry's timer is cancelled with it). This runs wherever the last reference went, touching
    /// only state that is safe from any thread; it is not an `isolated deinit`, which Swift 6.3's
    /// optimiser cannot compile across modules (a cycle on the deinit's isolation in release builds).
    deinit {
        let reason = DBusError.disconnected("the connection was released")
        for (_, sub) in subscriptions { sub.finish(throwing: reason) }
        for (_, task) in methodTasks { task.cancel() }
        handle.scheduleClose()
    }

    /// Whether the connection is still open (not closed and not disconnected by the bus).
    public var isConnected: Bool { isOpen && handle.isConnected }

    /// Closes the connection: replies already decided are sent, outstanding calls fail with
    /// `Disconnected`, signal streams finish, running method handlers are cancelled, exported objects and
    /// names disappear. Idempotent.
    public func close() {
        if isOpen { flushDecidedReplies() }
        shutDown(reason: .disconnected("the connection was closed"))
        handle.close()
    }

    /// Fails everything that waits on this connection. Called on close and on `Disconnected`; touches
    /// no libdbus state, so it is safe inside the filter.
    func shutDown(reason: DBusError) {
        guard isOpen else { return }
        isOpen = false
        calls.close(with: reason)
        let subs = subscriptions
        subscriptions.removeAll()
        for (_, sub) in subs { sub.finish(throwing: reason) }
        for waiter in owners.removeAll() { waiter.resume(throwing: reason) }
        for (_, task) in methodTasks { task.cancel() }
        methodTasks.removeAll()
        methodTaskCalls.removeAll()
        objects.removeAll()
    }

    /// Sends from the actor (replies, errors); the actor runs on the queue.
    func send(_ message: OutgoingMessage) throws(DBusError) -> UInt32 {
        guard isOpen else { throw .disconnected() }
        return try handle.send(message)
    }
}
