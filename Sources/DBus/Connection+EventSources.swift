internal import CDBus
internal import Dispatch
internal import TBRFoundation

// libdbus's main-loop integration: watches become DescriptorWatches, timeouts Dispatch timers, and a
// change of dispatch status schedules one drain of the incoming queue. libdbus calls these functions
// from inside the libdbus calls that change them, and every libdbus call on a connection is made on the
// connection's queue, so every callback runs there; each one asserts it.

extension ConnectionHandle {
    /// Wires libdbus's watches, timeouts, dispatch status and the message filter to `queue`, with
    /// `owner` receiving the messages. On `queue`, once, right after the connection opened.
    func installEventSources(owner: Connection) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.owner = owner
        let data = Unmanaged.passUnretained(self).toOpaque()
        _ = LibDBus.c.connection_set_watch_functions(
            raw,
            { watch, data in WatchBox.add(watch!, handle: ConnectionHandle.from(data)) },
            { watch, data in WatchBox.remove(watch!, handle: ConnectionHandle.from(data)) },
            { watch, data in WatchBox.toggled(watch!, handle: ConnectionHandle.from(data)) },
            data, nil)
        _ = LibDBus.c.connection_set_timeout_functions(
            raw,
            { timeout, data in TimeoutBox.add(timeout!, handle: ConnectionHandle.from(data)) },
            { timeout, data in TimeoutBox.remove(timeout!, handle: ConnectionHandle.from(data)) },
            { timeout, data in TimeoutBox.toggled(timeout!, handle: ConnectionHandle.from(data)) },
            data, nil)
        LibDBus.c.connection_set_dispatch_status_function(
            raw,
            { _, status, data in
                let handle = ConnectionHandle.from(data)
                dispatchPrecondition(condition: .onQueue(handle.queue))
                if status == DBUS_DISPATCH_DATA_REMAINS { handle.scheduleDrain() }
            },
            data, nil)
        _ = LibDBus.c.connection_add_filter(
            raw,
            { _, message, data in
                let handle = ConnectionHandle.from(data)
                dispatchPrecondition(condition: .onQueue(handle.queue))
                guard let owner = handle.owner, let message else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let decoded = Result { () throws(DBusValueError) in try Message(message) }
                return owner.assumeIsolated { $0.receive(decoded) }
            },
            data, nil)
        // Messages may already be queued (e.g. NameAcquired); drain them in a job of their own.
        scheduleDrain()
    }

    /// Detaches everything ``installEventSources(owner:)`` attached; libdbus removes each watch and
    /// timeout through the callbacks below, which cancel their sources. On `queue`.
    func removeEventSources() {
        dispatchPrecondition(condition: .onQueue(queue))
        LibDBus.c.connection_set_dispatch_status_function(raw, nil, nil, nil)
        _ = LibDBus.c.connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        _ = LibDBus.c.connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        owner = nil
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> ConnectionHandle {
        Unmanaged<ConnectionHandle>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Schedules one drain of libdbus's incoming queue in a job of its own on `queue` (never inline:
    /// the dispatch-status callback runs inside other libdbus calls).
    func scheduleDrain() {
        queue.async { [self] in drain() }
    }

    /// Dispatches queued messages; the filter sees each one. On `queue`.
    func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        var budget = 64
        while !isClosed, LibDBus.c.connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            _ = LibDBus.c.connection_dispatch(raw)
            budget -= 1
            if budget == 0 {
                // Let other work on the queue (callers' sends, timers) run between large bursts.
                scheduleDrain()
                return
            }
        }
    }
}

/// One libdbus watch: a ``DescriptorWatch`` on duplicates of libdbus's socket (libdbus closes its socket
/// as soon as the connection closes or fails, and a connection opened in between could get its number;
/// see ``DescriptorWatch``), made when libdbus adds the watch, switched on and off as libdbus toggles it,
/// and cancelled when libdbus removes it. Confined to the connection's queue. libdbus owns the box through
/// `dbus_watch_set_data`.
final class WatchBox {
    let source: DescriptorWatch

    private init(source: DescriptorWatch) { self.source = source }

    static func add(_ watch: OpaquePointer, handle: ConnectionHandle) -> dbus_bool_t {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        let flags = LibDBus.c.watch_get_flags(watch)
        var events: DescriptorWatch.Events = []
        if flags & tbrd_dbus_watch_readable != 0 { events.insert(.readable) }
        if flags & tbrd_dbus_watch_writable != 0 { events.insert(.writable) }
        // libdbus's watches are for reading or for writing; one for neither has nothing to report.
        guard !events.isEmpty else { return 1 }
        let source: DescriptorWatch
        do {
            source = try DescriptorWatch(duplicating: LibDBus.c.watch_get_unix_fd(watch), events: events, queue: handle.queue) {
                [unowned handle] ready in
                dispatchPrecondition(condition: .onQueue(handle.queue))
                guard !handle.isClosed else { return }
                _ = LibDBus.c.watch_handle(watch, ready == .readable ? tbrd_dbus_watch_readable : tbrd_dbus_watch_writable)
                handle.drain()
            }
        } catch {
            // Out of descriptors: libdbus takes the failure as out of memory.
            return 0
        }
        let box = WatchBox(source: source)
        LibDBus.c.watch_set_data(watch, Unmanaged.passRetained(box).toOpaque()) { data in
            Unmanaged<WatchBox>.fromOpaque(data!).release()
        }
        if LibDBus.c.watch_get_enabled(watch) != 0 { source.enabled = events }
        return 1
    }

    static func remove(_ watch: OpaquePointer, handle: ConnectionHandle) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard let data = LibDBus.c.watch_get_data(watch) else { return }
        Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue().source.cancel()
        LibDBus.c.watch_set_data(watch, nil, nil)
    }

    static func toggled(_ watch: OpaquePointer, handle: ConnectionHandle) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard let data = LibDBus.c.watch_get_data(watch) else { return }
        let source = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue().source
        source.enabled = LibDBus.c.watch_get_enabled(watch) != 0 ? source.events : []
    }
}

/// One libdbus timeout and its timer, confined to the connection's queue: libdbus asks for a repeating
/// interval, enabled or not.
final class TimeoutBox {
    let timer: QueueTimer

    private init(timer: QueueTimer) { self.timer = timer }

    static func add(_ timeout: OpaquePointer, handle: ConnectionHandle) -> dbus_bool_t {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        let timer = QueueTimer(queue: handle.queue) { [unowned handle] in
            dispatchPrecondition(condition: .onQueue(handle.queue))
            guard !handle.isClosed else { return }
            _ = LibDBus.c.timeout_handle(timeout)
            handle.drain()
        }
        let box = TimeoutBox(timer: timer)
        LibDBus.c.timeout_set_data(timeout, Unmanaged.passRetained(box).toOpaque()) { data in
            Unmanaged<TimeoutBox>.fromOpaque(data!).release()
        }
        box.follow(timeout)
        return 1
    }

    static func remove(_ timeout: OpaquePointer, handle: ConnectionHandle) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard let data = LibDBus.c.timeout_get_data(timeout) else { return }
        Unmanaged<TimeoutBox>.fromOpaque(data).takeUnretainedValue().timer.cancel()
        LibDBus.c.timeout_set_data(timeout, nil, nil)
    }

    static func toggled(_ timeout: OpaquePointer, handle: ConnectionHandle) {
        dispatchPrecondition(condition: .onQueue(handle.queue))
        guard let data = LibDBus.c.timeout_get_data(timeout) else { return }
        Unmanaged<TimeoutBox>.fromOpaque(data).takeUnretainedValue().follow(timeout)
    }

    /// Arms the timer with `timeout`'s interval when libdbus enables it, else disarms it.
    private func follow(_ timeout: OpaquePointer) {
        if LibDBus.c.timeout_get_enabled(timeout) != 0 {
            timer.arm(every: .milliseconds(Int(LibDBus.c.timeout_get_interval(timeout))))
        } else {
            timer.disarm()
        }
    }
}
