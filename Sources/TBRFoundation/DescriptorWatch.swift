public import Dispatch

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The one way tbrd watches a descriptor for readiness: a thread of the watch's own, blocked in
/// `poll(2)` on the descriptor and on a wake-up pipe, reports readiness to a handler on the watch's
/// queue. libdbus's watches, Avahi's poll, TCP connections and listeners, the netlink monitors and the
/// tests' output pumps all use it.
///
/// **Not a Dispatch source.** Until December 2026 a watch was a Dispatch read source and a write source.
/// Under `stress-ng`, 6 of 20 runs of `make test` crashed in libdispatch's manager thread, each in the
/// hang-up branch of its epoll event loop (`_dispatch_event_loop_drain` reading a freed muxnote's list of
/// writers): libdispatch's epoll bookkeeping loses track of a muxnote when sources on descriptors are
/// made and torn down while peers hang up (swiftlang/swift-corelibs-libdispatch#949, open;
/// swift-subprocess moved off Dispatch I/O on Linux for the same crash). The crash was in libdispatch's
/// code, not in how sources were used, so no use of sources avoids it; a watch now stays out of
/// libdispatch's epoll set entirely. Dispatch still runs the handlers (on `queue`) and the timers.
///
/// **The descriptor polled** is one the watch keeps open until its thread has stopped: for a descriptor
/// the watch does not own (libdbus's or Avahi's socket, ``init(duplicating:events:queue:handler:)``) a
/// `dup` of it, so that a library closing its own descriptor, and a new file getting the same number,
/// never makes the watch report another file's readiness; for one it owns (a socket it was given,
/// ``init(taking:events:queue:handler:)``) the descriptor itself.
///
/// **Reports.** Readiness is level-triggered, as with `poll`: a direction that is enabled and ready is
/// reported, once; it is not reported again until the handler has run, and then again if it is still
/// ready. A report is a hint, so the handler must cope with `EAGAIN`. A hang-up or an error is reported
/// as readiness of every enabled direction (a read then sees the end or the error). A descriptor closed
/// under an owned watch (`POLLNVAL`, a programming error) is reported once and then no longer polled.
///
/// **Threading.** A watch belongs to one serial `queue`: it is made, switched and cancelled there (each
/// asserts it with `dispatchPrecondition`), and its handler runs there. The handler is never called after
/// ``cancel()``, and it is held until the watch is released: a handler that captures the watch's owner
/// should capture it weakly. The thread holds only the descriptors and the shared state, never the watch;
/// it closes the descriptors it polled and ends soon after ``cancel()`` or the release of the watch.
public final class DescriptorWatch: @unchecked Sendable {
    // @unchecked: `isCancelled` is touched only on `queue`, which every method asserts, and by deinit,
    // when no one else can; the state shared with the thread is in `poller`, behind its lock.

    /// Directions of readiness.
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        /// Events from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The descriptor can be read (or accepted from) without blocking, or is at its end.
        public static let readable = Events(rawValue: 1)
        /// The descriptor can be written without blocking (or a connect finished).
        public static let writable = Events(rawValue: 2)
    }

    /// The descriptor given: the one to read and write (an owned one stays open until the watch's thread
    /// has stopped; a borrowed one is its owner's to close).
    public let descriptor: Int32
    /// The directions watched.
    public let events: Events
    /// The queue the watch is confined to and its handler runs on.
    public let queue: DispatchQueue
    private let poller: Poller
    private let handler: (Events) -> Void
    /// Whether ``cancel()`` ran (or the watch was released).
    public private(set) var isCancelled = false

    /// Watches `descriptor`, which the watch now owns and closes when it is torn down (even when this
    /// throws), for `events`; nothing is reported until ``enabled`` says so. On `queue`.
    /// - Throws: ``DescriptorWatchError`` when the wake-up pipe or the thread cannot be made.
    public convenience init(taking descriptor: Int32, events: Events, queue: DispatchQueue, handler: @escaping (Events) -> Void)
        throws(DescriptorWatchError)
    {
        try self.init(descriptor: descriptor, owned: true, events: events, queue: queue, handler: handler)
    }

    /// Watches `descriptor`, which stays its owner's (a library's), for `events`, through a duplicate the
    /// watch closes when it is torn down; nothing is reported until ``enabled`` says so. On `queue`.
    /// - Throws: ``DescriptorWatchError`` when the `dup`, the wake-up pipe or the thread cannot be made.
    public convenience init(duplicating descriptor: Int32, events: Events, queue: DispatchQueue, handler: @escaping (Events) -> Void)
        throws(DescriptorWatchError)
    {
        try self.init(descriptor: descriptor, owned: false, events: events, queue: queue, handler: handler)
    }

    private init(descriptor: Int32, owned: Bool, events: Events, queue: DispatchQueue, handler: @escaping (Events) -> Void)
        throws(DescriptorWatchError)
    {
        dispatchPrecondition(condition: .onQueue(queue))
        precondition(!events.isEmpty && events.isSubset(of: [.readable, .writable]), "a watch watches reading, writing or both")
        var polled = descriptor
        if !owned {
            polled = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard polled >= 0 else { throw DescriptorWatchError(descriptor: descriptor, code: errno) }
        }
        // The wake-up "pipe" is a socket pair: made close-on-exec and non-blocking in one call, which
        // the Glibc module's `pipe` cannot do.
        var pipe: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &pipe) == 0 else {
            let code = errno
            close(polled)
            throw DescriptorWatchError(descriptor: descriptor, code: code)
        }
        self.descriptor = descriptor
        self.events = events
        self.queue = queue
        self.handler = handler
        poller = Poller(descriptor: polled, wakeRead: pipe[0], wakeWrite: pipe[1])
        let code = poller.start { [weak self] ready in
            guard let watch = self else { return }
            queue.async { watch.deliver(ready) }
        }
        guard code == 0 else {
            // No thread: everything is closed here, and the deinit that follows the throw closes nothing again.
            isCancelled = true
            poller.closeAll()
            throw DescriptorWatchError(descriptor: descriptor, code: code)
        }
    }

    /// The directions reported now. Only directions of ``events``; ignored once cancelled. On ``queue``.
    public var enabled: Events {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return poller.state.withLock { $0.enabled }
        }
        set {
            dispatchPrecondition(condition: .onQueue(queue))
            precondition(newValue.isSubset(of: events), "only the directions a watch was made for can be enabled")
            guard !isCancelled else { return }
            // A direction switched off needs no wake-up: a report of it is dropped when it comes, and the
            // thread leaves it out of the next poll.
            let switchedOn = poller.state.withLock { s -> Bool in
                let on = !newValue.subtracting(s.enabled).isEmpty
                s.enabled = newValue
                return on
            }
            if switchedOn { poller.wake() }
        }
    }

    /// Runs the handler for a direction the thread found ready, unless the watch was cancelled or the
    /// direction switched off since; then lets the thread poll for it again. On ``queue``.
    private func deliver(_ ready: Events) {
        guard !isCancelled else { return }
        if poller.state.withLock({ $0.enabled.contains(ready) }) { handler(ready) }
        let again = poller.state.withLock { s -> Bool in
            s.reported.remove(ready)
            return s.enabled.contains(ready)
        }
        if again, !isCancelled { poller.wake() }
    }

    /// Stops the watch for good: the handler is not called again, and the thread closes the descriptor it
    /// polled (the owned descriptor too: do no more I/O on it) as it ends. Idempotent. On ``queue``.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        tearDown()
    }

    private func tearDown() {
        guard !isCancelled else { return }
        isCancelled = true
        poller.state.withLock { $0.isStopped = true }
        poller.wake()
        // The write end is the watch's: closed after its last wake-up, never by the thread, so a wake-up
        // can never reach a number the thread already gave back (and another file took).
        close(poller.wakeWrite)
    }

    deinit {
        // The last reference: nothing else can touch `isCancelled`, wherever this runs.
        tearDown()
    }
}

/// A watch's descriptors and the state its thread and its queue share.
private final class Poller: Sendable {
    struct State {
        /// The directions the queue wants reported.
        var enabled: DescriptorWatch.Events = []
        /// The directions reported whose handler has not run yet: left out of the poll until it has.
        var reported: DescriptorWatch.Events = []
        /// The watch was cancelled or released: the thread closes the descriptors and ends.
        var isStopped = false
        /// `poll` said the descriptor is not open: it is no longer polled.
        var isInvalid = false
    }

    let state = Locked(State())
    /// The descriptor polled (closed by the thread as it ends).
    let descriptor: Int32
    /// The wake-up pipe: a byte written makes the thread look at the state again.
    let wakeRead: Int32
    let wakeWrite: Int32

    init(descriptor: Int32, wakeRead: Int32, wakeWrite: Int32) {
        self.descriptor = descriptor
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    /// Makes the thread wake up and look at the state again. A full pipe already says so; a thread that
    /// has already ended (its read end closed) gets EPIPE, not this process a SIGPIPE.
    func wake() {
        var byte: UInt8 = 1
        while send(wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL)) < 0, errno == EINTR {}
    }

    /// Closes every descriptor, when no thread could be started.
    func closeAll() {
        close(descriptor)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the thread, which calls `report` with each direction it finds ready; 0, or the error of
    /// `pthread_create`.
    func start(report: @escaping @Sendable (DescriptorWatch.Events) -> Void) -> Int32 {
        let body = Unmanaged.passRetained(ThreadBody { [self] in run(report: report) })
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // The loop needs little stack; a small one keeps the thread's mapping small too.
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, body.toOpaque())
        if code != 0 { body.release() }
        return code
    }

    private func run(report: @Sendable (DescriptorWatch.Events) -> Void) {
        // The thread's own descriptors; the write end of the wake-up pair is the watch's (tearDown).
        defer {
            close(descriptor)
            close(wakeRead)
        }
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: -1, events: 0, revents: 0)]
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let (wanted, stopped) = state.withLock { s in
                (s.isInvalid ? [] : s.enabled.subtracting(s.reported), s.isStopped)
            }
            if stopped { return }
            var interest: Int16 = 0
            if wanted.contains(.readable) { interest |= Int16(POLLIN) }
            if wanted.contains(.writable) { interest |= Int16(POLLOUT) }
            // A negative descriptor is skipped by poll: nothing is wanted of it now.
            fds[1] = pollfd(fd: interest == 0 ? -1 : descriptor, events: interest, revents: 0)
            fds[0].revents = 0
            guard poll(&fds, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                // Out of memory for the poll: look again after a wake-up, not in a loop.
                fds[1].fd = -1
                _ = poll(&fds, 1, -1)
                continue
            }
            if fds[0].revents != 0 {
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            let revents = Int32(fds[1].revents)
            guard revents != 0 else { continue }
            var ready: DescriptorWatch.Events = []
            if revents & Int32(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 { ready.insert(.readable) }
            if revents & Int32(POLLOUT | POLLHUP | POLLERR | POLLNVAL) != 0 { ready.insert(.writable) }
            let toReport = state.withLock { s -> DescriptorWatch.Events in
                if revents & Int32(POLLNVAL) != 0 { s.isInvalid = true }
                let new = ready.intersection(wanted).intersection(s.enabled).subtracting(s.reported)
                s.reported.formUnion(new)
                return new
            }
            for direction in [DescriptorWatch.Events.readable, .writable] where toReport.contains(direction) {
                report(direction)
            }
        }
    }
}

/// What a new thread runs, passed to `pthread_create` as its one argument.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A descriptor that could not be watched: its `dup`, the wake-up pipe or the thread could not be made
/// (out of descriptors, say).
public struct DescriptorWatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The descriptor to be watched.
    public let descriptor: Int32
    /// The `errno` of the call that failed.
    public let code: Int32

    /// "cannot watch descriptor 7: Too many open files".
    public var description: String { "cannot watch descriptor \(descriptor): \(Errno(code).description)" }
}
