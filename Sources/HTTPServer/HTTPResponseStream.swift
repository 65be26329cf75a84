import Dispatch
import TBRFoundation

/// The body of a response that is written while it is sent (Server-Sent Events): the handler's task
/// queues chunks, the connection's thread takes them as the client reads. Bounded: at most ``capacity``
/// chunks wait; ``send(_:)`` refuses more (``SendResult/full``), so a client too slow to read never makes
/// the server's memory grow, and the producer decides what to do (tbrd's events end the stream with a last
/// event that says so). While nothing is queued for ``heartbeatInterval``, the connection's thread sends
/// ``heartbeat`` (an SSE comment), so that proxies and clients see a live connection.
///
/// The connection's thread blocks in ``pull(maximum:)``: libmicrohttpd's thread-per-connection mode
/// has no other flow control (as ``HTTPServer``'s responses). When the client goes away the stream is
/// closed: further sends answer ``SendResult/closed`` and the ``onClose(_:)`` action runs once.
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

    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes of the first chunk already taken.
        var offset = 0
        var finished = false
        var closed = false
        var onClose: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)
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
        let result = state.withLock { s -> SendResult in
            if s.closed || s.finished { return .closed }
            if s.chunks.count >= capacity { return .full }
            s.chunks.append(bytes)
            return .queued
        }
        if result == .queued { ready.signal() }
        return result
    }

    /// Ends the stream: `last` (when given) is sent after what is queued, even when the queue is full,
    /// then the response ends. Idempotent.
    public func finish(with last: [UInt8]? = nil) {
        state.withLock { s in
            guard !s.finished, !s.closed else { return }
            if let last { s.chunks.append(last) }
            s.finished = true
        }
        ready.signal()
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

    /// The next bytes for the client, at most `maximum`, blocking until there are some or a heartbeat
    /// is due; nil at the end. On the connection's thread.
    func pull(maximum: Int) -> [UInt8]? {
        while true {
            let next = state.withLock { s -> [UInt8]?? in
                if let first = s.chunks.first {
                    let end = min(first.count, s.offset + maximum)
                    let piece = Array(first[s.offset..<end])
                    if end == first.count {
                        s.chunks.removeFirst()
                        s.offset = 0
                    } else {
                        s.offset = end
                    }
                    return .some(piece)
                }
                return s.finished ? .some(nil) : nil
            }
            if let next {
                guard let bytes = next else { return nil }
                if bytes.isEmpty { continue }
                return bytes
            }
            let milliseconds = Int(heartbeatInterval.milliseconds(roundingUp: true))
            if ready.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut, !heartbeat.isEmpty {
                return Array(heartbeat.prefix(maximum))
            }
        }
    }

    /// The client went away, or libmicrohttpd is done with the response: runs the close action once.
    func close() {
        let action = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.closed else { return nil }
            s.closed = true
            s.chunks = []
            defer { s.onClose = nil }
            return s.onClose
        }
        action?()
    }
}
