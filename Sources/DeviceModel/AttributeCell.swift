import Synchronization
import TBRFoundation

/// One observable value: its current state and the ``AttributeStream``s that follow it.
///
/// Backends keep what they know about a device in cells; attributes read them and stream them. Setting
/// an equal value changes nothing and wakes nobody. Thread-safe; values are delivered under the cell's
/// lock so every subscriber sees changes in the order they were made (a stream that ended is forgotten at
/// the next change, see ``Departures``).
public final class AttributeCell<Value: Sendable & Equatable>: Sendable {
    private struct Subscriber {
        let deliver: @Sendable (Value) -> Void
        let finish: @Sendable () -> Void
    }

    private struct State {
        var value: Value
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state: Locked<State>
    private let departures = Departures()

    /// A cell holding `initial`.
    public init(_ initial: Value) { state = Locked(State(value: initial)) }

    /// The current value.
    public var value: Value { state.withLock { $0.value } }

    /// Replaces the value and notifies the subscribers if it changed.
    /// - Returns: whether the value changed.
    @discardableResult
    public func set(_ new: Value) -> Bool {
        state.withLock { s in
            departures.prune(&s.subscribers)
            guard s.value != new else { return false }
            s.value = new
            for subscriber in s.subscribers.values { subscriber.deliver(new) }
            return true
        }
    }

    /// Changes the value in place and notifies the subscribers if it changed.
    /// - Returns: the new value.
    @discardableResult
    public func update(_ change: (inout Value) -> Void) -> Value {
        state.withLock { s in
            departures.prune(&s.subscribers)
            var copy = s.value
            change(&copy)
            if copy != s.value {
                s.value = copy
                for subscriber in s.subscribers.values { subscriber.deliver(copy) }
            }
            return copy
        }
    }

    /// The value seen through `transform`: its current result first, then each different result.
    public func stream<T: Sendable & Equatable>(_ transform: @escaping @Sendable (Value) -> T) -> AttributeStream<T> {
        let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: .bufferingNewest(1))
        let last = Locked<T?>(nil)
        let deliver: @Sendable (Value) -> Void = { value in
            let mapped = transform(value)
            let changed = last.withLock { previous -> Bool in
                guard previous != mapped else { return false }
                previous = mapped
                return true
            }
            if changed { continuation.yield(mapped) }
        }
        let id: UInt64? = state.withLock { s in
            guard !s.finished else { return nil }
            departures.prune(&s.subscribers)
            s.nextID += 1
            s.subscribers[s.nextID] = Subscriber(deliver: deliver, finish: { continuation.finish() })
            deliver(s.value)
            return s.nextID
        }
        guard let id else {
            continuation.finish()
            return AttributeStream(stream)
        }
        continuation.onTermination = { [departures] _ in departures.leave(id) }
        return AttributeStream(stream)
    }

    /// The value itself as a stream.
    public func stream() -> AttributeStream<Value> { stream { $0 } }

    /// Ends every stream of this cell; later subscriptions end at once. The value stays readable.
    public func finish() {
        let subscribers = state.withLock { s -> [Subscriber] in
            s.finished = true
            defer { s.subscribers.removeAll() }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
