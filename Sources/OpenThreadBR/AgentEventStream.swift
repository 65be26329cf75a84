import DBus

/// A stream of typed events from one agent, built on a D-Bus signal subscription.
///
/// Attribute streams (role, active dataset, presence) yield the current value first, read after the
/// subscription was in place so no change is missed between the two; event streams (`Ready`,
/// `Dhcp6PdState`) yield only what happens. Buffering is the subscription's: up to
/// ``SignalStream/bufferLimit`` signals wait for a slow consumer; later ones are dropped and counted in
/// ``droppedCount``. Iteration ends with an ``AgentError`` (cause `disconnected`) when the connection
/// closes; it does not end when the agent restarts: signals of the new instance keep coming.
public struct AgentEventStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error

    let initial: [Element]
    let signals: SignalStream
    let transform: @Sendable (Signal) -> Element?
    let interfaceName: ThreadInterfaceName
    let operation: String

    init(
        initial: [Element], signals: SignalStream, interfaceName: ThreadInterfaceName, operation: String,
        transform: @escaping @Sendable (Signal) -> Element?
    ) {
        self.initial = initial
        self.signals = signals
        self.transform = transform
        self.interfaceName = interfaceName
        self.operation = operation
    }

    /// Signals dropped because the consumer fell behind.
    public var droppedCount: Int { signals.droppedCount }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pending: [Element]
        var base: SignalStream.AsyncIterator
        let transform: @Sendable (Signal) -> Element?
        let interfaceName: ThreadInterfaceName
        let operation: String

        /// The next event; nil when the stream ends.
        /// - Throws: ``AgentError`` when the connection closes.
        public mutating func next() async throws -> Element? {
            if !pending.isEmpty { return pending.removeFirst() }
            while true {
                let signal: Signal?
                do { signal = try await base.next() } catch {
                    throw AgentError.from(error, interfaceName: interfaceName, operation: operation)
                }
                guard let signal else { return nil }
                if let element = transform(signal) { return element }
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            pending: initial, base: signals.makeAsyncIterator(), transform: transform, interfaceName: interfaceName,
            operation: operation)
    }
}
