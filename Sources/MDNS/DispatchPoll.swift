internal import CAvahiClient
internal import Dispatch
internal import Glibc
internal import TBRFoundation

// Avahi's main-loop abstraction (`AvahiPoll`, avahi-common/watch.h) over Dispatch, the way the DBus
// module drives libdbus: a watch becomes a DescriptorWatch (made once and switched as Avahi asks) that
// reports to the client's serial queue, a timeout becomes a one-shot Dispatch timer on the same queue.
// No thread of Avahi's own runs Avahi; every Avahi call and callback happens on `queue`.

/// Owns the `AvahiPoll` vtable handed to `avahi_client_new`. It must outlive the client (the client
/// handle keeps a strong reference). Confined to `queue`.
final class DispatchPoll: @unchecked Sendable {
    // @unchecked: `api` is written once in init; Avahi reads it (and calls the functions) on `queue` only.
    let queue: DispatchQueue
    let api: UnsafeMutablePointer<AvahiPoll>

    init(queue: DispatchQueue) {
        self.queue = queue
        api = .allocate(capacity: 1)
        api.initialize(to: AvahiPoll())
        api.pointee.userdata = nil
        api.pointee.watch_new = { api, fd, event, callback, userdata in
            guard let api, let poll = DispatchPoll.owner(of: api), let callback else { return nil }
            return WatchBox.make(poll: poll, fd: fd, events: event.rawValue, callback: callback, userdata: userdata)
        }
        api.pointee.watch_update = { watch, event in WatchBox.from(watch)?.update(events: event.rawValue) }
        api.pointee.watch_get_events = { watch in AvahiWatchEvent(rawValue: WatchBox.from(watch)?.lastEvents ?? 0) }
        api.pointee.watch_free = { watch in WatchBox.from(watch)?.free() }
        api.pointee.timeout_new = { api, tv, callback, userdata in
            guard let api, let poll = DispatchPoll.owner(of: api), let callback else { return nil }
            return TimeoutBox.make(poll: poll, deadline: tv?.pointee, callback: callback, userdata: userdata)
        }
        api.pointee.timeout_update = { timeout, tv in TimeoutBox.from(timeout)?.update(deadline: tv?.pointee) }
        api.pointee.timeout_free = { timeout in TimeoutBox.from(timeout)?.free() }
        // The vtable finds its owner through `userdata`, unretained: the client handle retains the poll.
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        api.deinitialize(count: 1)
        api.deallocate()
    }

    fileprivate static func owner(of api: UnsafePointer<AvahiPoll>) -> DispatchPoll? {
        guard let userdata = api.pointee.userdata else { return nil }
        let poll = Unmanaged<DispatchPoll>.fromOpaque(userdata).takeUnretainedValue()
        dispatchPrecondition(condition: .onQueue(poll.queue))
        return poll
    }
}

/// One `AvahiWatch`: a ``DescriptorWatch`` on duplicates of Avahi's descriptor (Avahi's libdbus closes
/// its socket when avahi-daemon goes away, and the client made next can get the same number; see
/// ``DescriptorWatch``), reporting reading while `AVAHI_WATCH_IN` is wanted and writing while
/// `AVAHI_WATCH_OUT` is. Avahi owns it from `watch_new` to `watch_free`.
private final class WatchBox {
    let poll: DispatchPoll
    let fd: Int32
    let callback: AvahiWatchCallback
    let userdata: UnsafeMutableRawPointer?
    /// Set right after init (its handler holds the box weakly).
    private(set) var source: DescriptorWatch?
    /// The events of the callback being run (`watch_get_events`).
    var lastEvents: UInt32 = 0
    var freed = false

    private init(poll: DispatchPoll, fd: Int32, callback: @escaping AvahiWatchCallback, userdata: UnsafeMutableRawPointer?) {
        self.poll = poll
        self.fd = fd
        self.callback = callback
        self.userdata = userdata
    }

    /// A watch of `fd` for `events`, or nil when it cannot be watched (out of descriptors), which Avahi
    /// takes as a failure to allocate.
    static func make(
        poll: DispatchPoll, fd: Int32, events: UInt32, callback: @escaping AvahiWatchCallback, userdata: UnsafeMutableRawPointer?
    ) -> OpaquePointer? {
        let box = WatchBox(poll: poll, fd: fd, callback: callback, userdata: userdata)
        do {
            box.source = try DescriptorWatch(duplicating: fd, events: [.readable, .writable], queue: poll.queue) { [weak box] ready in
                box?.fire(ready == .readable ? tbrd_avahi_watch_in : tbrd_avahi_watch_out)
            }
        } catch {
            return nil
        }
        box.update(events: events)
        // Avahi holds the box until watch_free releases it.
        return OpaquePointer(Unmanaged.passRetained(box).toOpaque())
    }

    static func from(_ watch: OpaquePointer?) -> WatchBox? {
        guard let watch else { return nil }
        return Unmanaged<WatchBox>.fromOpaque(UnsafeRawPointer(watch)).takeUnretainedValue()
    }

    private var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    func update(events: UInt32) {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        guard !freed else { return }
        var wanted: DescriptorWatch.Events = []
        if events & tbrd_avahi_watch_in != 0 { wanted.insert(.readable) }
        if events & tbrd_avahi_watch_out != 0 { wanted.insert(.writable) }
        source?.enabled = wanted
    }

    private func fire(_ events: UInt32) {
        guard !freed else { return }
        lastEvents = events
        callback(opaque, fd, AvahiWatchEvent(rawValue: events), userdata)
        lastEvents = 0
    }

    func free() {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        guard !freed else { return }
        freed = true
        source?.cancel()
        // Balances the retain of make(); a callback running now holds its own strong reference.
        Unmanaged.passUnretained(self).release()
    }
}

/// One `AvahiTimeout`: a one-shot timer at an absolute `gettimeofday` time, or disarmed.
private final class TimeoutBox {
    let poll: DispatchPoll
    let callback: AvahiTimeoutCallback
    let userdata: UnsafeMutableRawPointer?
    /// Made once the box exists (its handler reaches the box weakly).
    private var timer: QueueTimer?
    var freed = false

    private init(poll: DispatchPoll, callback: @escaping AvahiTimeoutCallback, userdata: UnsafeMutableRawPointer?) {
        self.poll = poll
        self.callback = callback
        self.userdata = userdata
    }

    static func make(
        poll: DispatchPoll, deadline: timeval?, callback: @escaping AvahiTimeoutCallback, userdata: UnsafeMutableRawPointer?
    ) -> OpaquePointer {
        let box = TimeoutBox(poll: poll, callback: callback, userdata: userdata)
        box.timer = QueueTimer(queue: poll.queue) { [weak box] in box?.fire() }
        box.update(deadline: deadline)
        return OpaquePointer(Unmanaged.passRetained(box).toOpaque())
    }

    static func from(_ timeout: OpaquePointer?) -> TimeoutBox? {
        guard let timeout else { return nil }
        return Unmanaged<TimeoutBox>.fromOpaque(UnsafeRawPointer(timeout)).takeUnretainedValue()
    }

    private var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Arms the timer for `deadline` (wall-clock, as `avahi_elapse_time` computes it) or disarms it.
    func update(deadline: timeval?) {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        guard !freed else { return }
        guard let deadline else {
            timer?.disarm()
            return
        }
        var now = timeval()
        gettimeofday(&now, nil)
        let micros = (Int64(deadline.tv_sec) - Int64(now.tv_sec)) * 1_000_000 + Int64(deadline.tv_usec) - Int64(now.tv_usec)
        timer?.arm(after: .microseconds(micros), leeway: .milliseconds(1))
    }

    /// One-shot: the timer disarmed itself before this, and the callback may arm it again.
    private func fire() {
        guard !freed else { return }
        callback(opaque, userdata)
    }

    func free() {
        dispatchPrecondition(condition: .onQueue(poll.queue))
        guard !freed else { return }
        freed = true
        timer?.cancel()
        Unmanaged.passUnretained(self).release()
    }
}
