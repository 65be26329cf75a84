public import TBRFoundation

/// The events of one browse, in the order Avahi reported what they derive from, as an `AsyncSequence`
/// (TBRFoundation's ``EventStream``).
///
/// Buffering: up to `bufferLimit` events wait for a slow consumer; when the buffer is full, newer
/// events are dropped and counted in `droppedCount`. The stream ends when the client closes;
/// cancelling the iterating task, or dropping the stream, stops the browse (its browser and resolvers
/// are freed).
public typealias ServiceEventStream = EventStream<ServiceEvent>
