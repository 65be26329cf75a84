import Synchronization
public import TBRFoundation

/// Delivers each event to every current subscriber, each through its own bounded ``EventStream``.
///
/// Backends publish events here; traits subscribe. Delivery happens under the broadcaster's lock, so
/// all subscribers see events in publication order.
public final class EventBroadcaster<Event: Sendable>: Sendable {
    private struct Subscriber {
        let deliver: @Sendable (Event) -> Void
        let finish: @Sendable () -> Void
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state = Locked(State())
    private let departures = Departures()

    /// A broadcaster with no subscribers.
    public init() {}

    /// How many streams are subscribed now.
    public var subscriberCount: Int {
        state.withLock { s in
            departures.prune(&s.subscribers)
            return s.subscribers.count
        }
    }

    /// Publishes `event` to every subscriber.
    public func publish(_ event: Event) {
        state.withLock { s in
            departures.prune(&s.subscribers)
            for subscriber in s.subscribers.values { subscriber.deliver(event) }
        }
    }

    /// A stream of the events for which `transform` gives a value, from now on.
    /// - Parameter bufferLimit: how many undelivered events to hold (at least 1).
    public func subscribe<T: Sendable>(bufferLimit: Int, _ transform: @escaping @Sendable (Event) -> T?) -> EventStream<T> {
        let limit = max(1, bufferLimit)
        let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: .bufferingOldest(limit))
        let drops = DropCounter()
        let deliver: @Sendable (Event) -> Void = { event in
            guard let value = transform(event) else { return }
            if case .dropped = continuation.yield(value) { drops.increment() }
        }
        let id: UInt64? = state.withLock { s in
            guard !s.finished else { return nil }
            departures.prune(&s.subscribers)
            s.nextID += 1
            s.subscribers[s.nextID] = Subscriber(deliver: deliver, finish: { continuation.finish() })
            return s.nextID
        }
        if let id {
            continuation.onTermination = { [departures] _ in departures.leave(id) }
        } else {
            continuation.finish()
        }
        return EventStream(base: stream, drops: drops, bufferLimit: limit)
    }

    /// A stream of every event from now on.
    public func subscribe(bufferLimit: Int) -> EventStream<Event> { subscribe(bufferLimit: bufferLimit) { $0 } }

    /// Ends every stream; later subscriptions end at once.
    public func finish() {
        let subscribers = state.withLock { s -> [Subscriber] in
            s.finished = true
            defer { s.subscribers.removeAll() }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
