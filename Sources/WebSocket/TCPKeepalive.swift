/// TCP keepalive on a connection's socket, so that a peer that vanished without a word (powered off,
/// unplugged, its host crashed) is noticed by the kernel even while nothing is being sent, and a read
/// waiting on it fails (`ETIMEDOUT`, as ``WebSocketError/connectionLost(_:)``).
///
/// After ``idleSeconds`` without traffic the kernel sends a probe every ``intervalSeconds``; after
/// ``probes`` unanswered ones it drops the connection. `TCP_USER_TIMEOUT` is set to the same total, so
/// a peer that stops acknowledging data already sent is dropped as soon, rather than after the ~15
/// minutes of retransmissions Linux would otherwise try. The default, 5 + 5 × 3 s, finds a dead peer
/// within 20 s. (A peer whose process hangs while its kernel still answers is not noticed this way:
/// that is what ``WebSocketKeepalive``'s pings are for.)
public struct TCPKeepalive: Hashable, Sendable {
    /// Seconds without traffic before the first probe (`TCP_KEEPIDLE`).
    public var idleSeconds: Int32
    /// Seconds between probes (`TCP_KEEPINTVL`).
    public var intervalSeconds: Int32
    /// Unanswered probes before the connection is dropped (`TCP_KEEPCNT`).
    public var probes: Int32

    /// Keepalive as given (defaults: 5 s idle, a probe every 3 s, 5 probes: 20 s).
    public init(idleSeconds: Int32 = 5, intervalSeconds: Int32 = 3, probes: Int32 = 5) {
        precondition(idleSeconds >= 1 && intervalSeconds >= 1 && probes >= 1, "TCP keepalive takes whole seconds and at least one probe")
        self.idleSeconds = idleSeconds
        self.intervalSeconds = intervalSeconds
        self.probes = probes
    }

    /// How long a silent dead peer can go unnoticed: ``idleSeconds`` + ``probes`` × ``intervalSeconds``
    /// (also the connection's `TCP_USER_TIMEOUT`).
    public var deadPeerSeconds: Int32 { idleSeconds + probes * intervalSeconds }
}
