import TBRFoundation

/// The body of a response that is written while it is sent (Server-Sent Events): the handler's task
/// queues chunks, the server's event loop takes them as the client reads. Bounded: at most ``capacity``
/// chunks wait; ``send(_:)`` refuses more (``SendResult/full``), so a client too slow to read never makes
/// the server's memory grow, and the producer decides what to do (tbrd's events end the stream with a last
/// event that says so). While nothing is queued for ``heartbeatInterval``, the server sends ``heartbeat``
/// (an SSE comment), so that proxies and clients see a live connection.
///
/// A stream holds no thread: when nothing is queued, its connection is suspended (``take(maximum:)``
/// parks it) and the next ``send(_:)``, ``finish(with:)`` or heartbeat resumes it. When the client goes
/// away the stream is closed: further sends answer ``SendResult/closed`` and the ``onClose(_:)`` action
/// runs once.
public final class HTTPResponseStream: Sendable {
    /// What became of a chunk given to ``send(_:)``.
    public enum SendResult: Sendable, Hashable {
        /// Queued.
        case queued
        /// Not queued: ``capacity`` chunks already wait for a client that is not reading.
        case full
        /// Not queued: the client went away or the stream was finished.
        case closed
    }

    /// What ``take(maximum:)`` gives the server.
    package enum Piece: Equatable {
        /// Bytes to send.
        case bytes([UInt8])
        /// Nothing is queued: the connection was parked (its park action ran), and is resumed by what comes next.
        case parked
        /// The stream is over.
        case end
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes of the first chunk already taken.
        var offset = 0
        var finished = false
        var closed = false
        var onClose: (@Sendable () -> Void)?
        /// Suspends the connection (set by the server as the stream starts, on its thread).
        var park: (@Sendable () -> Void)?
        /// Resumes the connection.
        var unpark: (@Sendable () -> Void)?
        var parked = false
        /// When bytes were last taken.
        var lastTaken = ContinuousClock.now
    }

    private let state = Locked(State())
    /// How many chunks may wait at most.
    public let capacity: Int
    /// Sent when nothing else was for ``heartbeatInterval``.
    public let heartbeat: [UInt8]
    /// How long the connection may stay silent.
    public let heartbeatInterval: Duration

    /// A stream of at most `capacity` waiting chunks, with `heartbeat` after each `interval` of silence
    /// (none when empty).
    public init(capacity: Int, heartbeat: [UInt8] = [], every interval: Duration = .seconds(15)) {
        precondition(capacity > 0, "a stream holds at least one chunk")
        self.capacity = capacity
        self.heartbeat = heartbeat
        heartbeatInterval = interval
    }

    /// Queues `bytes` for the client.
    public func send(_ bytes: [UInt8]) -> SendResult {
        let (result, wake) = state.withLock { s -> (SendResult, (@Sendable () -> Void)?) in
            if s.closed || s.finished { return (.closed, nil) }
            if s.chunks.count >= capacity { return (.full, nil) }
            s.chunks.append(bytes)
            return (.queued, Self.unparked(&s))
        }
        wake?()
        return result
    }

    /// Ends the stream: `last` (when given) is sent after what is queued, even when the queue is full,
    /// then the response ends. Idempotent.
    public func finish(with last: [UInt8]? = nil) {
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.finished, !s.closed else { return nil }
            if let last { s.chunks.append(last) }
            s.finished = true
            return Self.unparked(&s)
        }
        wake?()
    }

    /// Runs `action` once when the client goes away or the stream ends (at once when it already has).
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.closed { return true }
            s.onClose = action
            return false
        }
        if now { action() }
    }

    /// The server's actions on the stream's connection: `park` suspends it (called by ``take(maximum:)``
    /// on the server's thread), `unpark` resumes it (called from any thread, once per park).
    package func attach(park: @escaping @Sendable () -> Void, unpark: @escaping @Sendable () -> Void) {
        state.withLock { s in
            s.park = park
            s.unpark = unpark
        }
    }

    /// The next bytes for the client, at most `maximum`; when nothing is queued, the connection is
    /// parked (under the stream's lock, so a send that follows always finds it parked) until something is.
    package func take(maximum: Int) -> Piece {
        state.withLock { s -> Piece in
            while let first = s.chunks.first {
                let end = min(first.count, s.offset + maximum)
                let piece = Array(first[s.offset..<end])
                if end == first.count {
                    s.chunks.removeFirst()
                    s.offset = 0
                } else {
                    s.offset = end
                }
                if piece.isEmpty { continue }
                s.lastTaken = .now
                return .bytes(piece)
            }
            if s.finished || s.closed { return .end }
            guard let park = s.park else { return .end }
            s.parked = true
            park()
            return .parked
        }
    }

    /// Queues the heartbeat when the stream is parked and has been silent for ``heartbeatInterval`` at
    /// `now` (the server's sweep calls it).
    package func beatIfSilent(at now: ContinuousClock.Instant) {
        guard !heartbeat.isEmpty else { return }
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.parked, !s.closed, !s.finished, now - s.lastTaken >= heartbeatInterval else { return nil }
            s.chunks.append(heartbeat)
            return Self.unparked(&s)
        }
        wake?()
    }

    /// The resume action when the connection is parked, which it is no longer.
    private static func unparked(_ s: inout State) -> (@Sendable () -> Void)? {
        guard s.parked else { return nil }
        s.parked = false
        return s.unpark
    }

    /// The client went away, or libmicrohttpd is done with the response: runs the close action once.
    package func close() {
        let action = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.closed else { return nil }
            s.closed = true
            s.parked = false
            s.chunks = []
            s.park = nil
            s.unpark = nil
            defer { s.onClose = nil }
            return s.onClose
        }
        action?()
    }
}
