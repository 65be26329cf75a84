import FoundationEssentials
public import MQTT
public import MQTTMapping
public import TBRCore
import TBRDocuments
public import TBRFoundation

/// tbrd over MQTT (docs/mqtt.md): the core's state as retained topics, its events as events, requests
/// on `<base>/bridge/request/<operation>` answered on `<base>/bridge/response/<operation>`, and Home
/// Assistant's discovery configs. It maps and never decides, as the D-Bus and HTTP adapters: every
/// request is one core call through the core's gate; its only state is which routers and structures it
/// has published, so that what goes is cleared.
///
/// One worker publishes the retained state, in the order it was asked for (a router read twice is never
/// published older over newer); events go out as they come; requests run at most
/// ``concurrentRequests`` at once.
public final class MQTTAdapter: Sendable {
    /// What tbrd.conf says the adapter may do, and what it tells of tbrd.
    public struct Settings: Sendable {
        public var topics: MQTTTopics
        public var clientID: String
        /// `mqtt-admin`: what only an admin token may do over HTTPS.
        public var admin: Bool
        /// `mqtt-epskc`: ePSKc activation and deactivation.
        public var epskc: Bool
        public var version: String

        /// Settings as given.
        public init(topics: MQTTTopics, clientID: String, admin: Bool, epskc: Bool, version: String) {
            self.topics = topics
            self.clientID = clientID
            self.admin = admin
            self.epskc = epskc
            self.version = version
        }
    }

    let core: Core
    let client: MQTTClient
    let settings: Settings
    let logger: Logger
    let discovery: HomeAssistantDiscovery?
    /// The core's events, subscribed when the adapter is made (none is lost before ``run()``).
    let coreEvents: EventStream<CoreEvent>
    /// The retained state to publish, in order (one worker drains it): at most ``workLimit`` waiting; when
    /// more come, the worker publishes everything once it is through (``Published/behind``).
    let work = AsyncStream.makeStream(of: Publication.self, bufferingPolicy: .bufferingOldest(workLimit))
    static let workLimit = 4096
    /// The routers and structures whose retained topics and discovery configs are out.
    let published = Locked(Published())
    /// Requests at once; more wait for one to finish.
    static let concurrentRequests = 8

    struct Published {
        var routers: Set<String> = []
        var structures: Set<String> = []
        /// The last payload of each retained state topic: the same document is not sent again (until the
        /// next connection, which sends everything).
        var payloads: [String: [UInt8]] = [:]
        /// A publication could not wait (the queue was full): everything is published once the queue is through.
        var behind = false
    }

    /// Asks the worker for `publication`.
    func ask(_ publication: Publication) {
        if case .dropped = work.continuation.yield(publication) { published.withLock { $0.behind = true } }
    }

    /// What the worker publishes.
    enum Publication: Sendable {
        /// Everything: after each connection.
        case all
        /// Router `id`'s documents (cleared when it is gone) and tbrd's info.
        case router(String)
        /// Every structure's documents (cleared for those gone) and tbrd's info.
        case structures
        /// The discovery configs again (Home Assistant restarted).
        case discovery
        /// tbrd's info (problems opened or closed).
        case info
    }

    /// The adapter over `core`, speaking through `client` (not started yet: ``run()`` starts it).
    public init(core: Core, client: MQTTClient, settings: Settings, logger: Logger) {
        self.core = core
        self.client = client
        self.settings = settings
        self.logger = logger
        self.discovery = HomeAssistantDiscovery(topics: settings.topics, clientID: settings.clientID, version: settings.version)
        self.coreEvents = core.lifecycle.events(bufferLimit: 1024)
    }

    /// The topic filters the client subscribes at each connection.
    public static func subscriptions(_ topics: MQTTTopics) -> [String] {
        [topics.requests, topics.internetAccessCommands] + (topics.homeAssistantStatus.map { [$0] } ?? [])
    }

    /// The last will: `offline`, retained, on `<base>/bridge/state`.
    public static func will(_ topics: MQTTTopics) -> MQTTMessage { MQTTMessage(topic: topics.bridgeState, text: "offline", retain: true) }

    /// Connects and maps until cancelled (tbrd's service group runs it).
    public func run() async {
        let clientEvents = client.events
        client.start()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.publishState() }
            group.addTask { await self.forwardCoreEvents() }
            group.addTask {
                await withTaskGroup(of: Void.self) { requests in
                    var running = 0
                    for await event in clientEvents {
                        if running >= Self.concurrentRequests {
                            await requests.next()
                            running -= 1
                        }
                        guard let job = self.job(for: event) else { continue }
                        running += 1
                        requests.addTask { await job() }
                    }
                }
            }
        }
    }

    /// Says goodbye: `offline` on `<base>/bridge/state`, then a clean disconnection.
    public func stop() async {
        work.continuation.finish()
        await client.stop(saying: [Self.will(settings.topics)])
    }

    /// What to do about what the client told.
    private func job(for event: MQTTClientEvent) -> (@Sendable () async -> Void)? {
        switch event {
        case .connected(let version):
            logger.notice("MQTT: connected to the broker", [("protocol", version)])
            ask(.all)
            return nil
        case .disconnected, .refused:
            // The client said why in the log, once per attempt.
            return nil
        case .message(let message):
            let topics = settings.topics
            if message.topic == topics.homeAssistantStatus {
                if message.payload == Array("online".utf8) { ask(.discovery) }
                return nil
            }
            if let operation = topics.operation(ofRequest: message.topic) {
                return { await self.answer(operation, message) }
            }
            if let structure = topics.structure(ofInternetAccessCommand: message.topic) {
                return { await self.setInternetAccess(of: structure, message.payload) }
            }
            return nil
        }
    }

    /// The core's events: events to their topics, changes of state to the worker.
    private func forwardCoreEvents() async {
        var dropped = 0
        for await event in coreEvents {
            // Events the stream could not hold: what they changed is not known, so the state goes again whole.
            if coreEvents.droppedCount > dropped {
                dropped = coreEvents.droppedCount
                published.withLock { $0.behind = true }
                ask(.info)
            }
            switch event {
            case .epskc(let e): publishEvent("epskc", e)
            case .policy(let view):
                publishEvent("policy", view)
                ask(.structures)
            case .commissioning(let report): publishEvent("commissioning", report)
            case .recovery(let report): publishEvent("recovery", report)
            case .problem(let change):
                publishEvent("problem", ProblemEventDocument(event: change.opened ? "opened" : "closed", problem: change.problem))
                ask(.info)
            case .router(let id, _), .routerChanged(let id): ask(.router(id))
            case .structuresChanged: ask(.structures)
            }
        }
    }

    /// The `problem` event: `{"event": "opened"|"closed", "problem": {…}}`, as the HTTPS API's.
    struct ProblemEventDocument: Encodable {
        var event: String
        var problem: HealthProblem
    }

    private func publishEvent(_ kind: String, _ document: some Encodable) {
        guard let payload = try? Self.encode(document) else { return }
        client.publish(MQTTMessage(topic: settings.topics.event(kind), payload: payload))
    }

    /// Members sorted by name, as `tbrctl --json` prints them; secrets redacted (MeshCoP's `Secrets`).
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(value))
    }
}
