import TBRFoundation
import WebSocket

/// What the server has to say to one client, in order: python-matter-server puts every result, error
/// and event for a client on one queue (`_to_write`, `client_handler.py`) that one writer sends, so
/// the order in which they are queued is the order on the wire.
///
/// Bounded as the real queue is: 512 messages (`MAX_PENDING_MSG`). A client that lets more pile up is
/// disconnected, as the real server cancels such a client. Queuing never waits, so the server can
/// queue from its actor without a suspension between a result and the events that follow it.
final class Outbox: Sendable {
    /// The real server's bound.
    static let capacity = 512

    private let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    /// Yields once when the queue overflows.
    let overflow: AsyncStream<Void>
    private let overflowContinuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.capacity))
        (overflow, overflowContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `message`, written as the server writes it (indented JSON). Once the queue is full the
    /// message is dropped and ``overflow`` says the client is to be disconnected.
    func send(_ message: JSON) {
        if case .dropped = continuation.yield(message.indented) {
            overflowContinuation.yield()
            overflowContinuation.finish()
        }
    }

    /// Queues a result: `{"message_id", "result"}`.
    func result(_ id: JSON, _ value: JSON) { send(["message_id": id, "result": value]) }

    /// Queues an error: `{"message_id", "error_code", "details"}`.
    func error(_ id: JSON, _ error: CommandError) {
        send(["message_id": id, "error_code": .int(Int64(error.code)), "details": .string(error.details)])
    }

    /// Ends the queue: the writer sends what is queued, then stops.
    func finish() {
        continuation.finish()
        overflowContinuation.finish()
    }

    /// Sends the queued messages to `connection` until the queue ends or the connection fails.
    func write(to connection: WebSocketConnection) async {
        for await text in stream {
            do { try await connection.send(text: text) } catch { return }
        }
    }
}
