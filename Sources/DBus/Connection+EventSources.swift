internal import CDBus
internal import Dispatch
internal import Glibc

// libdbus's main-loop integration: watches become DispatchSources on the connection's queue, timeouts
// become Dispatch timers, and a change of dispatch status schedules one drain of the incoming queue.
// Every callback below runs on the connection's queue because every libdbus call is made there.

extension Connection {
    func installEventSources() {
        let raw = handle.raw
        handle.owner = self
        let data = Unmanaged.passUnretained(handle).toOpaque()
        dbus_connection_set_watch_functions(
            raw,
            { watch, data in WatchBox.add(watch!, handle: ConnectionHandle.from(data)) },
            { watch, _ in WatchBox.remove(watch!) },
            { watch, _ in WatchBox.toggled(watch!) },
            data, nil)
        dbus_connection_set_timeout_functions(
            raw,
            { timeout, data in TimeoutBox.add(timeout!, handle: ConnectionHandle.from(data)) },
            { timeout, _ in TimeoutBox.remove(timeout!) },
            { timeout, _ in TimeoutBox.toggled(timeout!) },
            data, nil)
        dbus_connection_set_dispatch_status_function(
            raw,
            { _, status, data in
                if status == DBUS_DISPATCH_DATA_REMAINS { ConnectionHandle.from(data).scheduleDrain() }
            },
            data, nil)
        _ = dbus_connection_add_filter(
            raw,
            { _, message, data in
                let handle = ConnectionHandle.from(data)
                guard let owner = handle.owner, let message else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let decoded = Result { () throws(DBusValueError) in try Message(message) }
                return owner.assumeIsolated { $0.receive(decoded) }
            },
            data, nil)
        // Messages may already be queued (e.g. NameAcquired); drain them once the actor is running.
        handle.scheduleDrain()
    }

    func removeEventSources() {
        let raw = handle.raw
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        handle.owner = nil
    }
}

extension ConnectionHandle {
    static func from(_ data: UnsafeMutableRawPointer?) -> ConnectionHandle {
        Unmanaged<ConnectionHandle>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Schedules one drain of libdbus's incoming queue on `queue`.
    func scheduleDrain() {
        queue.async { [self] in drain() }
    }

    /// Dispatches queued messages (our filter sees each one). Runs on `queue`.
    func drain() {
        guard !isClosed else { return }
        var budget = 64
        while dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(raw)
            budget -= 1
            if budget == 0 {
                // Let other work on the queue (callers, timers) run between large bursts.
                scheduleDrain()
                return
            }
        }
    }
}

/// One libdbus watch and its Dispatch source. libdbus owns the box through `dbus_watch_set_data`.
final class WatchBox: @unchecked Sendable {
    // @unchecked: libdbus calls add/remove/toggled with its connection lock held, so they never run
    // at once; the kick block reads `removed` on the connection's queue, where removal also happens.
    let source: any DispatchSourceProtocol
    let watch: OpaquePointer
    let writable: Bool
    unowned let handle: ConnectionHandle
    var suspended = true
    var removed = false

    private init(source: any DispatchSourceProtocol, watch: OpaquePointer, writable: Bool, handle: ConnectionHandle) {
        self.source = source
        self.watch = watch
        self.writable = writable
        self.handle = handle
    }

    static func add(_ watch: OpaquePointer, handle: ConnectionHandle) -> dbus_bool_t {
        let flags = dbus_watch_get_flags(watch)
        let writable = flags & tbrd_dbus_watch_writable != 0
        // libdispatch multiplexes all sources of one fd on Linux, and suspending the write source (which
        // libdbus toggles on every blocked send, from any thread) can lose the read source's readiness.
        // The write source therefore watches a duplicate of the socket, closed when the source ends.
        let fd = writable ? dup(dbus_watch_get_unix_fd(watch)) : dbus_watch_get_unix_fd(watch)
        guard fd >= 0 else { return 0 }
        let source: any DispatchSourceProtocol =
            writable
            ? DispatchSource.makeWriteSource(fileDescriptor: fd, queue: handle.queue)
            : DispatchSource.makeReadSource(fileDescriptor: fd, queue: handle.queue)
        if writable { source.setCancelHandler { close(fd) } }
        let box = WatchBox(source: source, watch: watch, writable: writable, handle: handle)
        let condition = writable ? tbrd_dbus_watch_writable : tbrd_dbus_watch_readable
        source.setEventHandler { [unowned handle] in
            guard !handle.isClosed else { return }
            _ = dbus_watch_handle(watch, condition)
            handle.drain()
        }
        dbus_watch_set_data(watch, Unmanaged.passRetained(box).toOpaque()) { data in
            Unmanaged<WatchBox>.fromOpaque(data!).release()
        }
        source.activate()
        box.suspended = false
        if dbus_watch_get_enabled(watch) == 0 { box.suspend() }
        return 1
    }

    static func remove(_ watch: OpaquePointer) {
        guard let data = dbus_watch_get_data(watch) else { return }
        let box = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
        box.removed = true
        box.source.cancel()
        if box.suspended { box.source.resume() }
        box.suspended = false
        dbus_watch_set_data(watch, nil, nil)
    }

    static func toggled(_ watch: OpaquePointer) {
        guard let data = dbus_watch_get_data(watch) else { return }
        let box = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
        if dbus_watch_get_enabled(watch) != 0 {
            box.resume()
            // libdbus enables the write watch when a message sent from another thread could not be
            // written at once (that thread found the I/O path busy). A resumed write source does not
            // always report a socket that was already writable, so write once on the queue now.
            if box.writable { box.kick() }
        } else {
            box.suspend()
        }
    }

    private func kick() {
        handle.queue.async { [weak self] in
            guard let self, !self.removed, !self.handle.isClosed, dbus_watch_get_enabled(self.watch) != 0 else { return }
            _ = dbus_watch_handle(self.watch, tbrd_dbus_watch_writable)
            self.handle.drain()
        }
    }

    private func suspend() {
        guard !suspended else { return }
        source.suspend()
        suspended = true
    }

    private func resume() {
        guard suspended else { return }
        source.resume()
        suspended = false
    }
}

/// One libdbus timeout and its Dispatch timer.
final class TimeoutBox {
    let timer: any DispatchSourceTimer
    var suspended = true

    private init(timer: any DispatchSourceTimer) { self.timer = timer }

    static func add(_ timeout: OpaquePointer, handle: ConnectionHandle) -> dbus_bool_t {
        let timer = DispatchSource.makeTimerSource(queue: handle.queue)
        let box = TimeoutBox(timer: timer)
        timer.setEventHandler { [unowned handle] in
            guard !handle.isClosed else { return }
            _ = dbus_timeout_handle(timeout)
            handle.drain()
        }
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(box).toOpaque()) { data in
            Unmanaged<TimeoutBox>.fromOpaque(data!).release()
        }
        box.schedule(timeout)
        timer.activate()
        box.suspended = false
        if dbus_timeout_get_enabled(timeout) == 0 { box.suspend() }
        return 1
    }

    static func remove(_ timeout: OpaquePointer) {
        guard let data = dbus_timeout_get_data(timeout) else { return }
        let box = Unmanaged<TimeoutBox>.fromOpaque(data).takeUnretainedValue()
        box.timer.cancel()
        if box.suspended { box.timer.resume() }
        box.suspended = false
        dbus_timeout_set_data(timeout, nil, nil)
    }

    static func toggled(_ timeout: OpaquePointer) {
        guard let data = dbus_timeout_get_data(timeout) else { return }
        let box = Unmanaged<TimeoutBox>.fromOpaque(data).takeUnretainedValue()
        if dbus_timeout_get_enabled(timeout) != 0 {
            box.schedule(timeout)
            box.resume()
        } else {
            box.suspend()
        }
    }

    private func schedule(_ timeout: OpaquePointer) {
        let ms = Int(dbus_timeout_get_interval(timeout))
        timer.schedule(deadline: .now() + .milliseconds(ms), repeating: .milliseconds(ms))
    }

    private func suspend() {
        guard !suspended else { return }
        timer.suspend()
        suspended = true
    }

    private func resume() {
        guard suspended else { return }
        timer.resume()
        suspended = false
    }
}
