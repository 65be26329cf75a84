public import RouterFleet
import InternetAccessPolicy
public import MatterCommissioning
package import DBus
public import MatterCommissioner
public import DeviceModel
public import Firewall
import OpenThreadBR
import OpenThreadREST
import HTTP
public import TBRFoundation

/// The service core over otbr-agent: finds every agent on a bus and follows them coming and going,
/// runs each router's ePSKc sessions, enforces each structure's internet-access policy on its routers
/// (and, given a ``Firewall/HostFirewall``, in the host's firewall), and backs the ``DeviceModel`` traits.
///
/// ```swift
/// let service = BorderRouterService(connection: connection)
/// try await service.withRunning { service in
///     let device = try await service.home.device(id: "wpan0")
///     …
/// }
/// ```
///
/// ``run()`` is the long-running part (the daemon runs it in its service group; cancelling the task
/// stops it); ``withRunning(_:)`` runs it around a body. Routers are keyed by their Thread interface name
/// (``TBRFoundation/DeviceID``) and work independently; a router whose agent leaves the bus is kept, marked
/// offline. A service runs once.
public actor BorderRouterService: HomeBackend {
    /// The bus connection the agents are reached through.
    package nonisolated let connection: Connection
    /// The configuration.
    public nonisolated let configuration: BorderRouterServiceConfiguration
    /// Where structures and their settings are kept.
    public nonisolated let structureStore: any StructureStore
    /// The host firewall the internet-access policy also enforces (``NoHostFirewall``: none).
    public nonisolated let firewall: any HostFirewall
    nonisolated let clock: any TBRClock
    nonisolated let logger: Logger
    nonisolated let sink: any EpskcEventSink
    nonisolated let advertisedNames: any AdvertisedNamesSource
    nonisolated let epskcBroadcaster = EventBroadcaster<EpskcEvent>()
    /// The commissioner of Matter devices (BorderRouterService+Commissioning.swift; ``MatterCommissioner/NoCommissioner``:
    /// none, and the commissioning calls answer `notSupported`).
    public nonisolated let commissioner: any Commissioner
    /// Where commissioned Matter nodes are recorded.
    public nonisolated let matterNodes: any MatterNodeStore
    nonisolated let commissioningBroadcaster = EventBroadcaster<CommissioningProgress>()
    nonisolated let registryBroadcaster = EventBroadcaster<RouterRegistryEvent>()

    /// Every router's channel, for the policy reconciler (which reads it from its own tasks); a router on
    /// REST gets policy `unsupported`, without a firewall entry.
    nonisolated let routerChannels: Locked<[DeviceID: any RouterChannel]>
    /// The internet-access policy reconciler; it runs while ``run()`` does.
    nonisolated let policy: PolicyReconciler
    /// The Matter commissioning sessions; they run while ``run()`` does.
    nonisolated let commissioning: CommissioningCoordinator

    var routers: [DeviceID: ManagedRouter] = [:]
    var phase = Phase.idle
    /// Opened when the service runs, or stops before it did: what ``waitUntilReady()`` waits for.
    let ready = Latch()

    enum Phase {
        case idle
        case starting(AsyncStream<Command>.Continuation)
        case running(AsyncStream<Command>.Continuation)
        case stopped
    }

    enum Command: Sendable {
        case discovered(AgentDiscovery.Event)
        case adopt(ManagedRouter)
        case discoveryFailed(String)
    }

    /// A service over `connection`.
    /// - Parameters:
    ///   - configuration: per-router facts and timing.
    ///   - clock: where time comes from (the session deadlines and polls).
    ///   - logger: where the service logs (never keys or datasets).
    ///   - eventSink: the journal that records each ePSKc event before it is streamed; ``NoEventJournal``
    ///     (the default): events are streamed at once, unnumbered.
    ///   - structureStore: where structures are kept (default: in memory).
    ///   - advertisedNames: where routers' advertised vendor and product names come from;
    ///     ``NoAdvertisedNames`` (the default): none are known.
    ///   - firewall: the host firewall of the internet-access policy (tbrd passes ``Firewall/NFTables``);
    ///     ``NoHostFirewall`` (the default): only NAT64 and DHCPv6-PD are managed, on the agents.
    ///   - commissioner: the Matter commissioner devices are handed to; ``MatterCommissioner/NoCommissioner``
    ///     (the default): commissioning calls answer `notSupported`.
    ///   - matterNodes: where commissioned nodes are recorded (default: in memory).
    package init(
        connection: Connection, configuration: BorderRouterServiceConfiguration = BorderRouterServiceConfiguration(),
        clock: any TBRClock = SystemClock(), logger: Logger = .disabled, eventSink: any EpskcEventSink = NoEventJournal(),
        structureStore: any StructureStore = InMemoryStructureStore(), advertisedNames: any AdvertisedNamesSource = NoAdvertisedNames(),
        firewall: any HostFirewall = NoHostFirewall(), commissioner: any Commissioner = NoCommissioner(),
        matterNodes: any MatterNodeStore = InMemoryMatterNodeStore()
    ) {
        self.commissioner = commissioner
        self.matterNodes = matterNodes
        self.connection = connection
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.sink = eventSink
        self.structureStore = structureStore
        self.advertisedNames = advertisedNames
        self.firewall = firewall
        let channels = Locked<[DeviceID: any RouterChannel]>([:])
        self.routerChannels = channels
        self.policy = PolicyReconciler(
            store: structureStore, firewall: firewall,
            timing: PolicyTiming(
                checkInterval: configuration.policyCheckInterval, retryDelay: configuration.policyRetryDelay,
                retryLimit: configuration.policyRetryLimit, nat64Timeout: configuration.policyNat64Timeout),
            clock: clock, logger: logger.child("policy"),
            channel: { id in channels.withLock { $0[id] } })
        self.commissioning = CommissioningCoordinator(
            commissioner: commissioner, nodeStore: matterNodes, events: commissioningBroadcaster,
            sessionLifetime: configuration.commissioningSessionLifetime, timeouts: configuration.commissioningTimeouts, clock: clock,
            logger: logger.child("matter"))
    }

    /// The home over this service: `try await service.home.device(id: "wpan0")`.
    public nonisolated var home: Home { Home(backend: self) }

    // MARK: registry

    /// Every router seen, online or not, sorted by id.
    public func routerSummaries() -> [BorderRouterSummary] {
        routers.keys.sorted().compactMap { routers[$0]?.summaryCell.value }
    }

    /// The summary of router `id` now, then each change (online, role, Border Agent ID, ePSKc session
    /// open); nil for an unknown router.
    public func summaryUpdates(of id: DeviceID) -> AttributeStream<BorderRouterSummary>? {
        routers[id]?.summaryCell.stream()
    }

    /// The id of the router `text` names: a router id, a Thread interface name, or a Border Agent ID in
    /// hex (as `tbrctl -d` takes them); nil when none matches.
    public func resolveRouter(_ text: String) -> DeviceID? {
        if let id = DeviceID(rawValue: text), routers[id] != nil { return id }
        let lowered = text.lowercased()
        return routers.values.first { $0.summaryCell.value.borderAgentID?.description.lowercased() == lowered }?.deviceID
    }

    /// Routers appearing, going online and offline, from now on (bounded; see ``DeviceModel/EventStream``).
    public nonisolated func registryEvents(bufferLimit: Int = 256) -> EventStream<RouterRegistryEvent> {
        registryBroadcaster.subscribe(bufferLimit: bufferLimit)
    }

    /// Every router's ePSKc events, from now on, in order per router; each already journalled by the
    /// event sink (bounded; see ``DeviceModel/EventStream``).
    public nonisolated func epskcEvents(bufferLimit: Int = 256) -> EventStream<EpskcEvent> {
        epskcBroadcaster.subscribe(bufferLimit: bufferLimit)
    }

    // MARK: HomeBackend

    /// Every router seen, online or not, sorted.
    public func deviceIDs() -> [DeviceID] { routers.keys.sorted() }

    /// The router `id`, its state refreshed from its agent when it is online.
    /// - Throws: ``DeviceModel/HomeError`` `notFound`.
    public func borderRouter(_ id: DeviceID) async throws(HomeError) -> any BorderRouterBackend {
        try await borderRouter(id, refreshing: true)
    }

    /// The router `id`; with `refreshing` false its state is what the service last read or was signalled
    /// (tbrd serves many property reads per second and reads each group from the agent itself).
    /// - Throws: ``DeviceModel/HomeError`` `notFound`.
    public func borderRouter(_ id: DeviceID, refreshing: Bool) async throws(HomeError) -> any BorderRouterBackend {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        if refreshing { await router.refresh() }
        return router
    }

    // MARK: internet-access policy

    /// Returns once the policy reconciler has taken in every structure change stored so far and recorded
    /// the statuses that follow (routers still being applied are `pending`), so that a status read next
    /// is about the settings just written. Returns at once when the service is not running.
    public func policySettled() async {
        await policy.settled()
    }

    /// As ``policySettled()``, after structure `structure`'s internet-access option was set (to a new
    /// value or the one it had): its routers are applied again now rather than at the next read-back,
    /// and their statuses are `pending` until that is done.
    public func policyReapplied(_ structure: StructureID) async {
        await policy.reapplied(structure)
    }

    // MARK: ePSKc sessions across restarts

    /// Recovers an ePSKc session journalled before the service restarted, so that its end is still
    /// detected and reported (once) with the reason inferred as usual. A router not seen yet is
    /// registered (offline until its agent appears); a router on another host must have been added first. A session that ended meanwhile is settled at once:
    /// from the agent's telemetry if it kept the journey, else by its deadline. Restoring the open
    /// session again changes nothing.
    /// - Throws: ``DeviceModel/HomeError``: `invalidArgument` for a device id that is not an interface
    ///   name, `busy` when another session is open on the router.
    public func restoreEpskcSession(_ record: EpskcSessionRecord) async throws(HomeError) {
        if let known = routers[record.deviceID] { return try await known.restore(record) }
        guard let name = try? ThreadInterfaceName(record.deviceID.rawValue) else {
            throw HomeError(.invalidArgument, "\(record.deviceID) is not a Thread interface name, so no otbr-agent serves it")
        }
        try await register(name).router.restore(record)
    }

    /// Registers a router known from an earlier run (tbrd's store), so it is listed (offline until its
    /// agent appears) instead of forgotten across a restart. Harmless for a router already known.
    /// - Throws: ``DeviceModel/HomeError`` `invalidArgument` for an id that is not a Thread interface name.
    public func rememberRouter(_ id: DeviceID) throws(HomeError) {
        guard let name = try? ThreadInterfaceName(id.rawValue) else {
            throw HomeError(.invalidArgument, "\(id) is not a Thread interface name, so no otbr-agent serves it")
        }
        _ = register(name)
    }

    /// The open ePSKc sessions, as journal records.
    public func openEpskcSessions() async -> [EpskcSessionRecord] {
        var records: [EpskcSessionRecord] = []
        for id in routers.keys.sorted() {
            if let record = await routers[id]?.openSession() { records.append(record) }
        }
        return records
    }

    /// The hook for mDNS: router `id`'s `_meshcop-e._udp` service went away, so its key has ended.
    /// Telemetry is consulted first; otherwise the end is placed at `at` (default: now).
    public func epskcServiceWithdrawn(router id: DeviceID, at: ContinuousClock.Instant? = nil) async {
        await routers[id]?.epskcServiceWithdrawn(at: at ?? clock.now())
    }

    /// The hook for mDNS: router `id`'s `_meshcop-e._udp` service appeared (at `at`, default now), so a
    /// key is active. With no session open, someone else started it: a session of unknown validity
    /// (`validDurationSeconds` 0) opens, journalled and published like one this service started, and
    /// ends with the reason inferred as usual.
    public func epskcServiceAppeared(router id: DeviceID, at: ContinuousClock.Instant? = nil) async {
        await routers[id]?.epskcServiceAppeared(at: at ?? clock.now())
    }

    // MARK: internals

    /// The router of the agent on this bus for `name`, created (and announced) if new.
    func register(_ name: ThreadInterfaceName) -> (router: ManagedRouter, isNew: Bool) {
        let id = DeviceID(stringLiteral: name.rawValue)
        if let existing = routers[id] { return (existing, false) }
        let agent = BorderRouterAgent(
            connection: connection, interfaceName: name, callTimeout: configuration.agentCallTimeout,
            networkTimeout: configuration.agentNetworkTimeout, clock: clock)
        let rest = configuration.localREST.url(for: name.rawValue).map { RESTAgent(base: $0, http: HTTPClient(timeout: configuration.restTimeout)) }
        return (add(id, interfaceName: name, channel: DBusChannel(agent: agent, logger: logger.child("dbus"), rest: rest)), true)
    }

    /// Creates, announces and (when the service runs) starts the router `id` reached through `channel`.
    func add(_ id: DeviceID, interfaceName: ThreadInterfaceName?, channel: any RouterChannel) -> ManagedRouter {
        let router = ManagedRouter(
            id: id, interfaceName: interfaceName, channel: channel, configuration: configuration.router(id),
            leaveTimeout: configuration.leaveTimeout,
            epskcTiming: .init(pollInterval: configuration.epskcPollInterval, deadlineGrace: configuration.epskcDeadlineGrace), clock: clock,
            logger: logger.child("router"), sink: sink, advertisedNames: advertisedNames,
            serviceEvents: epskcBroadcaster, registryEvents: registryBroadcaster)
        routers[id] = router
        routerChannels.withLock { $0[id] = channel }
        registryBroadcaster.publish(.added(id))
        switch phase {
        case .starting(let commands), .running(let commands): commands.yield(.adopt(router))
        case .idle, .stopped: break
        }
        return router
    }
}
