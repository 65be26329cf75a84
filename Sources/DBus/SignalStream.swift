import TBRFoundation
import Synchronization

/// The signals of one subscription, in the order the bus delivered them.
///
/// Buffering: up to ``bufferLimit`` signals wait for the consumer; when the buffer is full, newer signals
/// are dropped and counted in ``droppedCount``. The match rule is added before the stream is returned
/// (nothing sent after that moment is missed) and removed when iteration is cancelled, the stream is
/// dropped, or the connection closes or is released (which ends iteration with `Disconnected`).
public struct SignalStream: AsyncSequence, Sendable {
    public typealias Element = Signal
    public typealias Failure = any Error

    let base: AsyncThrowingStream<Signal, any Error>
    let drops: DropCounter
    /// How many signals the buffer holds before dropping.
    public let bufferLimit: Int

    /// Signals dropped because the consumer fell behind.
    public var droppedCount: Int { drops.count }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Signal, any Error>.AsyncIterator
        let drops: DropCounter

        public mutating func next() async throws -> Signal? {
            // The connection's queue yields through a continuation; see ThreadSanitizer.
            defer { ThreadSanitizer.acquire(drops) }
            return try await base.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), drops: drops) }
}

/// A thread-safe counter of dropped elements. Also the object the queue and the iterator annotate the
/// handoff of signals on (``ThreadSanitizer``).
final class DropCounter: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func increment() { value.add(1, ordering: .relaxed) }
}

/// A live subscription held by the connection.
struct Subscription {
    let rule: MatchRule
    let continuation: AsyncThrowingStream<Signal, any Error>.Continuation
    let drops: DropCounter

    /// Hands `signal` to the stream, counting it if the buffer is full.
    func yield(_ signal: Signal) {
        ThreadSanitizer.release(drops)
        if case .dropped = continuation.yield(signal) { drops.increment() }
    }

    /// Ends the stream with `error`.
    func finish(throwing error: any Error) {
        ThreadSanitizer.release(drops)
        continuation.finish(throwing: error)
    }
}
