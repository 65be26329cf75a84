public import Dispatch
public import TBRFoundation

/// An MQTT client over libmosquitto, driven from one serial queue (STYLE.md 6): libmosquitto's socket is
/// watched with a ``TBRFoundation/DescriptorWatch`` (`mosquitto_loop_read`/`_write` when it is ready),
/// keepalive runs on a ``TBRFoundation/QueueTimer`` (`mosquitto_loop_misc`), and reconnection waits its
/// backoff on another. No thread of libmosquitto's own (`mosquitto_loop_start` is not used): every call
/// into the library is on ``queue``, so its callbacks run there too.
///
/// MQTT 5 first; a broker that answers "unsupported protocol version" is spoken to in 3.1.1 from then on.
/// What the owner publishes while the broker is away is dropped if retained (the owner publishes its
/// state again on ``MQTTClientEvent/connected(version:)``) and queued otherwise, up to
/// ``MQTTClientOptions/offlineQueueLimit``.
public final class MQTTClient: Sendable {
    /// The queue every libmosquitto call runs on.
    public let queue: DispatchQueue
    private let session: Session
    private let stream: AsyncStream<MQTTClientEvent>
    private let drops: DropCounter
    private let eventLimit: Int

    /// A client of the broker `options` names, not connected yet (``start()``), telling what happens
    /// through ``events`` (at most `eventLimit` not yet taken; more are dropped and counted).
    /// - Throws: ``MQTTError`` when libmosquitto cannot be opened or refuses the options (a CA file it
    ///   cannot read).
    public init(options: MQTTClientOptions, logger: Logger, eventLimit: Int = 1024) throws(MQTTError) {
        let api = try LibMosquitto.api.get()
        queue = DispatchQueue(label: "tbrd.mqtt")
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTClientEvent.self, bufferingPolicy: .bufferingOldest(max(1, eventLimit)))
        let drops = DropCounter()
        self.stream = stream
        self.drops = drops
        self.eventLimit = max(1, eventLimit)
        session = try Session(api: api, options: options, queue: queue, logger: logger) { event in
            if case .dropped = continuation.yield(event) { drops.increment() }
        }
    }

    /// What happens, in order, for one subscriber (the owner): bounded, counting what it drops.
    public var events: EventStream<MQTTClientEvent> { EventStream(base: stream, drops: drops, bufferLimit: eventLimit) }

    /// Starts connecting (and connecting again after each loss, with backoff) until ``stop(saying:)``.
    public func start() {
        queue.async { self.session.attempt() }
    }

    /// Publishes `message` (QoS 1): now when connected; when not, a message not retained waits in the
    /// offline queue and a retained one is dropped.
    public func publish(_ message: MQTTMessage) {
        queue.async { self.session.publish(message) }
    }

    /// Whether the broker has accepted the connection and not lost it since.
    public var isConnected: Bool { session.connectedNow.load(ordering: .relaxed) }

    /// Messages not retained that the offline queue could not hold, since the client was made.
    public var droppedWhileOffline: Int { session.droppedOffline.count }

    /// Publishes `last` when connected (a retained "offline", in place of the will the broker would
    /// otherwise send), disconnects cleanly and stops for good.
    public func stop(saying last: [MQTTMessage]) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                self.session.stop(saying: last)
                done.resume()
            }
        }
    }
}
