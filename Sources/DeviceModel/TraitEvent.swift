public import TBRFoundation
/// One event type of a trait: whether the device can emit it, and a stream of its occurrences.
///
/// ```swift
/// for await event in mgmt.epskcModeDeactivatedEvent.stream() { print(event.reason) }
/// ```
public struct TraitEvent<Payload: Sendable>: Sendable {
    private let supported: @Sendable () -> Bool
    private let subscriber: @Sendable (Int) -> EventStream<Payload>
    /// The event's name as the trait spells it, e.g. `epskcModeDeactivatedEvent`.
    public let name: String

    /// The default number of undelivered events a stream holds.
    public static var defaultBufferLimit: Int { 256 }

    /// An event backed by the given closures (backends and trait types build these).
    public init(
        name: String, isSupported: @escaping @Sendable () -> Bool,
        subscribe: @escaping @Sendable (_ bufferLimit: Int) -> EventStream<Payload>
    ) {
        self.name = name
        self.supported = isSupported
        self.subscriber = subscribe
    }

    /// Whether the device can emit this event, as it last said (no I/O).
    public var isSupported: Bool { supported() }

    /// The events from now on, in order (see ``EventStream`` for the buffering).
    /// - Parameter bufferLimit: how many undelivered events to hold before dropping newer ones.
    public func stream(bufferLimit: Int = TraitEvent.defaultBufferLimit) -> EventStream<Payload> {
        subscriber(bufferLimit)
    }
}
