public import TBRFoundation

/// The events of one browse, in the order Avahi reported what they derive from, as an `AsyncSequence`
/// (TBRFoundation's ``EventStream``).
///
/// Buffering: up to `bufferLimit` events wait for a slow consumer. When the buffer is full no event is
/// lost without a trace: the events that do not fit are counted in `droppedCount`, and once there is
/// room again the stream delivers ``ServiceEvent/resynchronized(_:)``, every service known at that
/// moment, from which a consumer learns what it missed (a removal among them: an ephemeral key's end
/// signal is never lost). The stream ends when the client closes;
/// cancelling the iterating task, or dropping the stream, stops the browse (its browser and resolvers
/// are freed).
public typealias ServiceEventStream = EventStream<ServiceEvent>
