import Synchronization

/// The events of one subscription, in the order they happened, as an `AsyncSequence`: the stream the
/// device model's traits, the service's broadcasts and the mDNS browses hand out.
///
/// Buffering: up to ``bufferLimit`` events wait for a slow consumer; when the buffer is full, newer
/// events are dropped and counted in ``droppedCount`` (so a consumer can tell it missed some and catch
/// up, from the journal for example). The stream ends when its source goes away; cancelling the
/// iterating task ends it too.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let base: AsyncStream<Element>
    private let drops: DropCounter
    /// How many undelivered events the buffer holds before dropping.
    public let bufferLimit: Int

    package init(base: AsyncStream<Element>, drops: DropCounter, bufferLimit: Int) {
        self.base = base
        self.drops = drops
        self.bufferLimit = bufferLimit
    }

    /// Events dropped because the consumer fell behind.
    public var droppedCount: Int { drops.count }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.AsyncIterator

        /// The next event, or nil when the stream has ended.
        public mutating func next() async -> Element? { await base.next() }

        /// The next event, or nil when the stream has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}

/// A thread-safe count of dropped events.
package final class DropCounter: Sendable {
    private let value = Atomic<Int>(0)
    package init() {}
    package var count: Int { value.load(ordering: .relaxed) }
    package func increment() { value.add(1, ordering: .relaxed) }
}
