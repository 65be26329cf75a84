public import TBRFoundation

/// Pings that prove the peer is alive (RFC 6455, section 5.5.2): opt-in for a ``WebSocketConnection``.
/// Every ``interval`` the connection sends a ping; when no pong with its payload arrives within
/// ``timeout``, the connection is failed: it is closed, a waiting ``WebSocketConnection/receive()``
/// throws ``WebSocketError/connectionLost(_:)`` ("no pong arrived within 5 s of a ping …"), and so does
/// every later call.
///
/// Pongs can only be seen while the connection is read, so the pings run while a `receive()` waits
/// (which a connection that expects events always has); a connection nobody reads sends none, and a
/// pong that was due while nobody read gets a fresh ``timeout`` when reading starts again.
///
/// This finds a peer whose process hangs or whose host went away; TCP keepalive (``TCPKeepalive``,
/// always on) finds only the latter, and more slowly.
public struct WebSocketKeepalive: Sendable {
    /// How often to ping (default 10 s).
    public var interval: Duration
    /// How long a pong may take (default 5 s).
    public var timeout: Duration
    /// Where the time comes from (a manual clock in tests).
    public var clock: any TBRClock

    /// Keepalive pings as given.
    public init(interval: Duration = .seconds(10), timeout: Duration = .seconds(5), clock: any TBRClock = SystemClock()) {
        precondition(interval > .zero && timeout > .zero, "keepalive needs a positive interval and timeout")
        self.interval = interval
        self.timeout = timeout
        self.clock = clock
    }
}

/// The keepalive's decisions, without I/O: when to ping, which pong answers, when the peer is dead.
struct KeepaliveSchedule: Sendable {
    /// What to do when woken.
    enum Directive: Equatable {
        /// Nothing is due yet: sleep until ``KeepaliveSchedule/nextWake``.
        case wait
        /// Send a ping with this payload.
        case ping([UInt8])
        /// The pong did not come: fail the connection with this reason.
        case fail(String)
    }

    let interval: Duration
    let timeout: Duration
    /// When the next ping is due.
    private var nextPing: ContinuousClock.Instant
    /// The ping waiting for its pong, and when it is overdue.
    private var outstanding: (payload: [UInt8], deadline: ContinuousClock.Instant)?
    private var counter: UInt64 = 0

    /// A schedule whose first ping is due one interval after `now`.
    init(interval: Duration, timeout: Duration, now: ContinuousClock.Instant) {
        self.interval = interval
        self.timeout = timeout
        self.nextPing = now.advanced(by: interval)
    }

    /// When to wake next: the pong's deadline while one is awaited, else the next ping.
    var nextWake: ContinuousClock.Instant { outstanding?.deadline ?? nextPing }

    /// Reading starts (again) at `now`: a pong that was due while nobody read gets a fresh timeout.
    mutating func readingStarts(at now: ContinuousClock.Instant) {
        if let o = outstanding, o.deadline < now { outstanding = (o.payload, now.advanced(by: timeout)) }
    }

    /// What is due at `now`.
    mutating func wake(at now: ContinuousClock.Instant) -> Directive {
        if let o = outstanding {
            guard now >= o.deadline else { return .wait }
            return .fail("no pong arrived within \(Self.words(timeout)) of a ping")
        }
        guard now >= nextPing else { return .wait }
        counter += 1
        let payload = withUnsafeBytes(of: counter.bigEndian, Array.init)
        outstanding = (payload, now.advanced(by: timeout))
        nextPing = now.advanced(by: interval)
        return .ping(payload)
    }

    /// A pong arrived; it answers the outstanding ping when it carries its payload.
    mutating func pong(_ payload: [UInt8]) {
        if outstanding?.payload == payload { outstanding = nil }
    }

    /// "5 s", "250 ms".
    static func words(_ d: Duration) -> String {
        let (s, atto) = d.components
        if atto == 0 { return "\(s) s" }
        return "\(s * 1000 + atto / 1_000_000_000_000_000) ms"
    }
}
