/// One MQTT application message, as published or received.
public struct MQTTMessage: Sendable, Hashable {
    /// Its topic.
    public var topic: String
    /// Its payload (UTF-8 JSON or a word, for tbrd; any bytes on the wire).
    public var payload: [UInt8]
    /// Whether the broker keeps it for later subscribers (an empty retained payload clears the topic).
    public var retain: Bool
    /// MQTT 5: where the publisher wants the answer (`Response Topic`), and what to answer with
    /// (`Correlation Data`); nil under MQTT 3.1.1.
    public var responseTopic: String?
    public var correlationData: [UInt8]?

    /// A message as given.
    public init(topic: String, payload: [UInt8], retain: Bool = false, responseTopic: String? = nil, correlationData: [UInt8]? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
    }

    /// A message whose payload is `text` in UTF-8.
    public init(topic: String, text: String, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}

/// What the client tells its owner, in order.
public enum MQTTClientEvent: Sendable {
    /// The broker accepted the connection (`version`: 5 or 3.1.1) and the subscriptions were sent; the
    /// messages queued while offline went first. Retained state is to be published now.
    case connected(version: String)
    /// The connection ended (`reason`); the client connects again after its backoff.
    case disconnected(reason: String)
    /// The broker could not be reached or refused the connection (`reason`); the next attempt is in `retry`.
    case refused(reason: String, retry: Duration)
    /// A message on a subscribed topic.
    case message(MQTTMessage)
}

/// What the client needs to reach its broker.
public struct MQTTClientOptions: Sendable {
    public var host: String
    public var port: Int
    /// TLS (`mqtts://`), checking the broker's certificate against `caFile` (nil: the system's CAs).
    public var tls: Bool
    public var caFile: String?
    public var username: String?
    public var password: String?
    public var clientID: String
    /// The keepalive the broker is told, in seconds.
    public var keepAlive: Int
    /// The last will: published by the broker, retained, when tbrd goes without saying goodbye.
    public var will: MQTTMessage?
    /// The topic filters subscribed at each connection.
    public var subscriptions: [String]
    /// The most messages not retained (events) kept while the broker is away, sent at reconnection;
    /// more are dropped and counted (``MQTTClient/droppedWhileOffline``).
    public var offlineQueueLimit: Int
    /// The wait before the first attempt again, doubled after each failure up to `maximumBackoff`.
    public var firstBackoff: Duration
    public var maximumBackoff: Duration

    /// Options as given; `offlineQueueLimit` 1,024, backoff 1 s doubling to 60 s, keepalive 60 s.
    public init(
        host: String, port: Int, tls: Bool, caFile: String?, username: String?, password: String?, clientID: String, will: MQTTMessage?,
        subscriptions: [String], keepAlive: Int = 60, offlineQueueLimit: Int = 1024, firstBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.username = username
        self.password = password
        self.clientID = clientID
        self.will = will
        self.subscriptions = subscriptions
        self.keepAlive = keepAlive
        self.offlineQueueLimit = offlineQueueLimit
        self.firstBackoff = firstBackoff
        self.maximumBackoff = maximumBackoff
    }
}
