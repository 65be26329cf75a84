import FoundationEssentials
import HTTPMessages
import TBRFoundation

/// The HTTPS API's live events (`GET /api/v1/events`, Server-Sent Events) fanned out to every client.
/// ``publish(_:)`` never blocks and never grows memory: each client has a bounded stream
/// (``HTTPResponseStream``, ``capacity`` events); a client that falls that far behind gets a last
/// `overflow` event and is closed, and may resume with `Last-Event-ID`.
///
/// A client that resumes is subscribed *holding*: live events wait (bounded too) while the journal is
/// replayed, then those the replay already gave are skipped (``release(_:replayedThrough:)``), so an
/// ePSKc event is neither lost nor sent twice.
final class APIEventHub: Sendable {
    /// One event: its SSE `event` name, its JSON `data`, and for journalled ePSKc events the journal
    /// sequence as its `id`.
    struct Event: Sendable, Hashable {
        var name: String
        var data: [UInt8]
        var sequence: Int64?

        /// The event in SSE's wire form.
        var frame: [UInt8] {
            var text = ""
            if let sequence { text += "id: \(sequence)\n" }
            text += "event: \(name)\ndata: "
            return Array(text.utf8) + data + Array("\n\n".utf8)
        }

        /// `name` with `value` as its JSON data.
        static func encoding<T: Encodable>(_ name: String, _ value: T, sequence: Int64? = nil) -> Event? {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(value) else { return nil }
            return Event(name: name, data: Array(data), sequence: sequence)
        }
    }

    private struct Subscriber {
        let stream: HTTPResponseStream
        /// While the journal is replayed: the live events that came meanwhile.
        var held: [Event]?
    }

    private let subscribers = Locked<[Int: Subscriber]>([:])
    private let nextID = Locked(0)
    /// Events that may wait for one client.
    let capacity: Int

    init(capacity: Int = 256) { self.capacity = capacity }

    /// How many clients are subscribed.
    var count: Int { subscribers.withLock { $0.count } }

    /// Whether any client listens: the publishers skip building events nobody would get (the API off,
    /// or no stream open).
    var hasSubscribers: Bool { count > 0 }

    /// A new client's stream: live events from now on; `holding`: kept back until ``release``.
    func subscribe(holding: Bool) -> (id: Int, stream: HTTPResponseStream) {
        let stream = HTTPResponseStream(capacity: capacity, heartbeat: Array(": keep-alive\n\n".utf8), every: .seconds(15))
        let id = nextID.withLock { n -> Int in
            n += 1
            return n
        }
        subscribers.withLock { $0[id] = Subscriber(stream: stream, held: holding ? [] : nil) }
        stream.onClose { [weak self] in self?.unsubscribe(id) }
        // A first comment: the client knows its stream is open, and every event from now on reaches it.
        _ = stream.send(Array(": open\n\n".utf8))
        return (id, stream)
    }

    /// Sends subscriber `id` what was held back, skipping journal events up to `sequence`, and from
    /// now on every event.
    func release(_ id: Int, replayedThrough sequence: Int64) {
        let held = subscribers.withLock { s -> (HTTPResponseStream, [Event])? in
            guard var subscriber = s[id], let held = subscriber.held else { return nil }
            subscriber.held = nil
            s[id] = subscriber
            return (subscriber.stream, held)
        }
        guard let (stream, events) = held else { return }
        for event in events where (event.sequence ?? .max) > sequence { deliver(event, to: id, stream) }
    }

    /// Sends `event` to subscriber `id` directly (the journal's replay).
    func send(_ event: Event, to id: Int) {
        guard let stream = subscribers.withLock({ $0[id]?.stream }) else { return }
        deliver(event, to: id, stream)
    }

    /// Sends `event` to every client (or holds it for those replaying).
    func publish(_ event: Event) {
        let streams = subscribers.withLock { s -> [(Int, HTTPResponseStream, Bool)] in
            var live: [(Int, HTTPResponseStream, Bool)] = []
            for (id, var subscriber) in s {
                if var held = subscriber.held {
                    if held.count < capacity {
                        held.append(event)
                        subscriber.held = held
                        s[id] = subscriber
                    } else {
                        live.append((id, subscriber.stream, true))  // too much came while replaying
                    }
                } else {
                    live.append((id, subscriber.stream, false))
                }
            }
            return live
        }
        for (id, stream, overflowing) in streams {
            if overflowing { overflow(id, stream) } else { deliver(event, to: id, stream) }
        }
    }

    private func deliver(_ event: Event, to id: Int, _ stream: HTTPResponseStream) {
        if stream.send(event.frame) == .full { overflow(id, stream) }
    }

    /// Ends a client's stream with a last `overflow` event.
    private func overflow(_ id: Int, _ stream: HTTPResponseStream) {
        let overflow = Event(
            name: "overflow", data: Array(#"{"detail":"this client fell too far behind; reconnect with Last-Event-ID to resume"}"#.utf8))
        stream.finish(with: overflow.frame)
        unsubscribe(id)
    }

    private func unsubscribe(_ id: Int) { _ = subscribers.withLock { $0.removeValue(forKey: id) } }
}
