import Synchronization

/// The signals of one subscription, in the order the bus delivered them.
///
/// Buffering: up to ``bufferLimit`` signals wait for the consumer; when the buffer is full, newer signals
/// are dropped and counted in ``droppedCount``. The match rule is added before the stream is returned
/// (nothing sent after that moment is missed) and removed when iteration is cancelled, the stream is
/// dropped, or the connection closes (which ends iteration with `Disconnected`).
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
        public mutating func next() async throws -> Signal? { try await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}

/// A thread-safe counter of dropped elements.
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
    /// Internal subscriptions (owner tracking) send no match rule of their own on removal.
    let ownsMatchRule: Bool
}

/// The current owner of a well-known name some subscription filters on.
struct TrackedOwner {
    var owner: String?
    var users: Int
}
