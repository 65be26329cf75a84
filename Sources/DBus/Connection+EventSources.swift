internal import CDBus
internal import Dispatch

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
final class WatchBox {
    let source: any DispatchSourceProtocol
    var suspended = true

    private init(source: any DispatchSourceProtocol) { self.source = source }

    static func add(_ watch: OpaquePointer, handle: ConnectionHandle) -> dbus_bool_t {
        let fd = dbus_watch_get_unix_fd(watch)
        let flags = dbus_watch_get_flags(watch)
        let writable = flags & tbrd_dbus_watch_writable != 0
        let source: any DispatchSourceProtocol =
            writable
            ? DispatchSource.makeWriteSource(fileDescriptor: fd, queue: handle.queue)
            : DispatchSource.makeReadSource(fileDescriptor: fd, queue: handle.queue)
        let box = WatchBox(source: source)
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
        box.source.cancel()
        if box.suspended { box.source.resume() }
        box.suspended = false
        dbus_watch_set_data(watch, nil, nil)
    }

    static func toggled(_ watch: OpaquePointer) {
        guard let data = dbus_watch_get_data(watch) else { return }
        let box = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
        if dbus_watch_get_enabled(watch) != 0 { box.resume() } else { box.suspend() }
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
