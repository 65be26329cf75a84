public import Dispatch

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The one way tbrd watches a descriptor for readiness: a Dispatch read source and/or write source,
/// made once, switched on and off by resuming and suspending them (never cancelled and made again), and
/// torn down once. libdbus's watches, Avahi's poll, TCP connections and listeners, and the netlink
/// monitors all use it.
///
/// **Each source watches a descriptor of its own, which its cancel handler closes.** For a descriptor the
/// watch does not own (libdbus's or Avahi's socket, ``init(duplicating:events:queue:handler:)``) that is a
/// `dup` of it per source; for one it owns (a socket it was given, ``init(taking:events:queue:handler:)``)
/// the descriptor itself for the first source and a `dup` for the second. libdispatch keys its epoll
/// registrations by descriptor number and unregisters a cancelled source later, on its own thread, so a
/// watched number must stay open until its source's cancel handler has run. A library closes its own
/// descriptor when it is done with it, often just before or after it stops the watch; a descriptor
/// opened in between can get the same number, and libdispatch then adds the new source to the stale
/// registration instead of watching the new file: the new connection's input is never reported. The
/// duplicate keeps the number taken until libdispatch has let go of it. Cancelling and making a source
/// again at every toggle would open that window at every toggle; here a toggle is a resume or a suspend.
/// One descriptor per source means a descriptor is never closed while another source still watches it.
///
/// **Threading.** A watch belongs to one serial `queue`: it is made, switched and cancelled there (each
/// asserts it with `dispatchPrecondition`), and its handler runs there. The handler is given the one
/// direction that is ready; a report is a hint, as with `poll`, so the handler must cope with `EAGAIN`.
/// It is never called after ``cancel()``, and it is held until then: a handler that captures the watch's
/// owner should capture it weakly.
public final class DescriptorWatch: @unchecked Sendable {
    // @unchecked: the mutable state (`resumed`, `isCancelled`) is touched only on `queue`, which every
    // method asserts, and by deinit, when no one else can; the rest is immutable.

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

    /// The descriptor given: the one to read and write (an owned one stays open until the watch is torn
    /// down; a borrowed one is its owner's to close).
    public let descriptor: Int32
    /// The directions watched: a source each.
    public let events: Events
    /// The queue the watch is confined to and its handler runs on.
    public let queue: DispatchQueue
    private let sources: [(direction: Events, source: any DispatchSourceProtocol)]
    private var resumed: Events = []
    /// Whether ``cancel()`` ran (or the watch was released).
    public private(set) var isCancelled = false

    /// Watches `descriptor`, which the watch now owns and closes when it is torn down (even when this
    /// throws), for `events`; nothing is reported until ``enabled`` says so. On `queue`.
    /// - Throws: ``DescriptorWatchError`` when a `dup` for the second source fails.
    public convenience init(taking descriptor: Int32, events: Events, queue: DispatchQueue, handler: @escaping (Events) -> Void)
        throws(DescriptorWatchError)
    {
        try self.init(descriptor: descriptor, owned: true, events: events, queue: queue, handler: handler)
    }

    /// Watches `descriptor`, which stays its owner's (a library's), for `events`, through duplicates the
    /// watch closes when it is torn down; nothing is reported until ``enabled`` says so. On `queue`.
    /// - Throws: ``DescriptorWatchError`` when a `dup` fails.
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
        let directions = [Events.readable, .writable].filter { events.contains($0) }
        var watched: [Int32] = []
        for _ in directions {
            if owned, watched.isEmpty {
                watched.append(descriptor)
                continue
            }
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else {
                let code = errno
                // The duplicates made so far, and an owned descriptor (the first watched).
                for fd in watched { close(fd) }
                throw DescriptorWatchError(descriptor: descriptor, code: code)
            }
            watched.append(copy)
        }
        self.descriptor = descriptor
        self.events = events
        self.queue = queue
        sources = zip(directions, watched).map { direction, fd in
            let source: any DispatchSourceProtocol =
                direction == .readable
                ? DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                : DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setCancelHandler { close(fd) }
            return (direction, source)
        }
        for (direction, source) in sources {
            source.setEventHandler { [weak self] in
                guard let self, !self.isCancelled else { return }
                handler(direction)
            }
            // Nothing runs on the queue in between, so no event is reported before it is wanted.
            source.activate()
            source.suspend()
        }
    }

    /// The directions reported now: switching one on resumes its source, switching it off suspends it.
    /// Only directions of ``events``; ignored once cancelled. On ``queue``.
    public var enabled: Events {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return resumed
        }
        set {
            dispatchPrecondition(condition: .onQueue(queue))
            precondition(newValue.isSubset(of: events), "only the directions a watch was made for can be enabled")
            guard !isCancelled else { return }
            for (direction, source) in sources {
                if newValue.contains(direction), !resumed.contains(direction) {
                    resumed.insert(direction)
                    source.resume()
                } else if !newValue.contains(direction), resumed.contains(direction) {
                    resumed.remove(direction)
                    source.suspend()
                }
            }
        }
    }

    /// Stops the watch for good: the handler is not called again, and each source's cancel handler
    /// closes its descriptor once libdispatch has let go of it (the owned descriptor too: do no more I/O
    /// on it). Idempotent. On ``queue``.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        tearDown()
    }

    private func tearDown() {
        guard !isCancelled else { return }
        isCancelled = true
        for (direction, source) in sources {
            source.cancel()
            // A suspended source never runs its cancel handler and must not be released: resume it.
            if !resumed.contains(direction) { source.resume() }
        }
        resumed = []
    }

    deinit {
        // The last reference: nothing else can touch the state, wherever this runs.
        tearDown()
    }
}

/// A descriptor that could not be watched: the `dup` for a source failed (out of descriptors, say).
public struct DescriptorWatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The descriptor to be watched.
    public let descriptor: Int32
    /// The `errno` of the failed `dup`.
    public let code: Int32

    /// "cannot watch descriptor 7: Too many open files".
    public var description: String { "cannot watch descriptor \(descriptor): \(Errno(code).description)" }
}
