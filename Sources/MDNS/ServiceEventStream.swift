import Synchronization

/// The events of one browse, in the order Avahi reported what they derive from, as an `AsyncSequence`.
///
/// Buffering: up to ``bufferLimit`` events wait for a slow consumer; when the buffer is full, newer
/// events are dropped and counted in ``droppedCount``. The stream ends when the client closes;
/// cancelling the iterating task, or dropping the stream, stops the browse (its browser and resolvers
/// are freed).
public struct ServiceEventStream: AsyncSequence, Sendable {
    public typealias Element = ServiceEvent
    public typealias Failure = Never

    let base: AsyncStream<ServiceEvent>
    let drops: DropCounter
    /// How many undelivered events the buffer holds before dropping.
    public let bufferLimit: Int

    /// Events dropped because the consumer fell behind.
    public var droppedCount: Int { drops.count }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<ServiceEvent>.AsyncIterator

        /// The next event, or nil once the stream has ended.
        public mutating func next() async -> ServiceEvent? { await base.next() }

        /// The next event, or nil once the stream has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> ServiceEvent? {
            await base.next(isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}

/// A thread-safe count of dropped events.
final class DropCounter: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func increment() { value.add(1, ordering: .relaxed) }
}
