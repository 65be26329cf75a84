/// The server's account of its open connections, and its two decisions about them (sans-IO: the server
/// carries them out, tests drive it with instants of their own):
///
/// - **Deadlines for the request, not for each byte.** A connection must send a request's whole head
///   within ``headDeadline`` of being ready for it (opened, or its last answer sent), and its body
///   within ``bodyDeadline`` of the head, however slowly it trickles; one that does not is to be
///   closed. A connection busy with its request (the handler working, an answer or an event stream
///   being sent) has no deadline: libmicrohttpd's idle timeout and the streams' bounds cover it.
/// - **A budget for strangers.** At most ``strangerLimit`` connections may be open that have not shown
///   a valid credential (``trust(_:)``); when a new one passes it, the oldest stranger that is waiting
///   for its head or body is to be closed, never a trusted connection and never one whose request is
///   being answered.
///
/// Every decision names the sockets to shut down; the server shuts them down while it holds the table,
/// so a socket libmicrohttpd closed (``close(_:)`` comes first) is never touched.
struct ConnectionTable {
    /// Where a connection is in its request.
    enum Phase: Sendable, Hashable {
        /// Waiting for a request's head (the request line and headers).
        case awaitingHead
        /// The head is in; waiting for the body.
        case awaitingBody
        /// Its request is with the handler, or its answer is being sent.
        case busy
    }

    struct Entry: Sendable, Hashable {
        let fd: Int32
        /// Opening order: the lower, the older.
        let order: UInt64
        var phase: Phase
        /// When the current phase began.
        var since: ContinuousClock.Instant
        var trusted = false
        /// Already shut down by a decision; closing.
        var shut = false
    }

    let strangerLimit: Int
    let headDeadline: Duration
    let bodyDeadline: Duration
    private(set) var entries: [UInt64: Entry] = [:]
    /// Open, untrusted and not yet shut down.
    private(set) var strangers = 0
    private var nextOrder: UInt64 = 0

    init(strangerLimit: Int, headDeadline: Duration, bodyDeadline: Duration) {
        self.strangerLimit = strangerLimit
        self.headDeadline = headDeadline
        self.bodyDeadline = bodyDeadline
    }

    /// A connection on socket `fd` opened at `now`: its id, and the socket of the stranger it displaces
    /// when the budget is passed (nil when none is, or none may be displaced).
    mutating func open(fd: Int32, at now: ContinuousClock.Instant) -> (id: UInt64, evicted: Int32?) {
        let id = nextOrder
        nextOrder += 1
        entries[id] = Entry(fd: fd, order: id, phase: .awaitingHead, since: now)
        strangers += 1
        guard strangers > strangerLimit else { return (id, nil) }
        var oldest: Entry?
        for entry in entries.values where !entry.trusted && !entry.shut && entry.phase != .busy && entry.order != id {
            if oldest.map({ entry.order < $0.order }) ?? true { oldest = entry }
        }
        guard let oldest else { return (id, nil) }
        markShut(oldest.order)
        return (id, oldest.fd)
    }

    /// The connection is gone (libmicrohttpd is about to close its socket).
    mutating func close(_ id: UInt64) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !entry.trusted && !entry.shut { strangers -= 1 }
    }

    /// The connection showed a valid credential: it is no stranger for the rest of its life.
    mutating func trust(_ id: UInt64) {
        guard var entry = entries[id], !entry.trusted else { return }
        if !entry.shut { strangers -= 1 }
        entry.trusted = true
        entries[id] = entry
    }

    /// Whether the connection has shown a valid credential.
    func isTrusted(_ id: UInt64) -> Bool { entries[id]?.trusted ?? false }

    /// The connection's request moves to `phase` at `now`.
    mutating func enter(_ phase: Phase, _ id: UInt64, at now: ContinuousClock.Instant) {
        guard var entry = entries[id] else { return }
        entry.phase = phase
        entry.since = now
        entries[id] = entry
    }

    /// The sockets of the connections whose deadline has passed at `now`, marked as shut.
    mutating func expired(at now: ContinuousClock.Instant) -> [Int32] {
        var late: [Int32] = []
        for entry in entries.values where !entry.shut {
            let deadline: Duration
            switch entry.phase {
            case .awaitingHead: deadline = headDeadline
            case .awaitingBody: deadline = bodyDeadline
            case .busy: continue
            }
            if now - entry.since >= deadline {
                markShut(entry.order)
                late.append(entry.fd)
            }
        }
        return late
    }

    private mutating func markShut(_ id: UInt64) {
        guard var entry = entries[id], !entry.shut else { return }
        entry.shut = true
        entries[id] = entry
        if !entry.trusted { strangers -= 1 }
    }
}
