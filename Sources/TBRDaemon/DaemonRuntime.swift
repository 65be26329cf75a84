import BorderAgentDiscovery
import BorderRouterService
import DBus
import DeviceModel
import Firewall
import HTTPServer
import FoundationEssentials
import MDNS
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRFoundation
import TBRLifecycle
import RouterFleet
import InternetAccessPolicy
import MatterCommissioning

/// tbrd once it has started: every part it runs on is here and non-optional, built by ``start`` before
/// anything is served, so no handler can observe tbrd half-built.
actor DaemonRuntime {
    let configuration: DaemonConfiguration
    let logger: Logger
    let clock: any TBRClock
    let store: TBRStore
    let connection: Connection
    let structures: PersistentStructureStore
    let service: BorderRouterService
    /// The service manager (systemd), told when tbrd is ready and stopping, and fed its watchdog.
    let notifier: ServiceNotifier
    /// The calls being served; closed on shutdown.
    let calls = CallGate()
    /// Router properties read from the agents, served for up to a second; the last ones while offline.
    let infoCache: RouterInfoCache
    /// Routers whose summary changes are to be followed (fed by exportRouter, drained by followSummaries).
    /// Unbounded: one element per router added, none may be lost.
    let newRouters = AsyncStream.makeStream(of: DeviceID.self, bufferingPolicy: .unbounded)
    /// avahi-daemon, for the Border Agents on the network (DaemonRuntime+MDNS.swift).
    let mdns: MDNSClient
    /// Whether tbrd browses for border agents through avahi-daemon (the system bus). Always, but for a
    /// tbrd a test runs in its own process: avahi-client reaches the system bus through libdbus, which
    /// reads that bus's address once per process, and the mDNS client tests in the same process set it.
    let browsesMDNS: Bool
    /// The names the routers advertise over mDNS, as the service reads them.
    let advertisedNames: AdvertisedRouterNames
    /// The structures' changes, subscribed before anything runs (drained by followPolicyStatus).
    let structureChanges: EventStream<StructureChange>
    /// Names leaving the bus, subscribed before anything is served (drained by followCommissioningOwners).
    let vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
    /// The commissioning sessions each caller (by unique name) opened and has not completed or cancelled.
    var commissioningOwners: [String: Set<SessionKey>] = [:]

    /// The structures' migrations whose delay runs (DaemonRuntime+Migration.swift), mirrored in the store.
    var runningMigrations: [StructureID: MigrationRow] = [:]
    /// Each structure's last migration once it ended (since tbrd started): a router judged `failed` that
    /// moves later is recorded there (`movedLate`).
    var settledMigrations: [StructureID: MigrationRow] = [:]
    /// Migrations to watch: one entry per start or pick-up, so at most one per structure is waiting
    /// (each holds its structure's lock); 256 bounds it.
    let migrationStarts = AsyncStream.makeStream(of: StructureID.self, bufferingPolicy: .bufferingNewest(256))

    var exportedRouters: Set<DeviceID> = []
    var exportedStructures: Set<StructureID> = []
    /// Whether `io.tbrd` has been taken (later routers are announced with `BorderRouterAdded`).
    var isPublished = false
    /// The border agents mDNS showed last (for `Diagnose`); nil until avahi-daemon has answered.
    var borderAgentsSeen: [BorderAgent]?

    /// The HTTPS API's token checks and live events (always present; served only with `http-listen`).
    let authenticator: APIAuthenticator
    let apiEvents = APIEventHub()
    /// The HTTPS API while it runs (DaemonRuntime+APIServer.swift), and its certificate's fingerprint.
    var apiServer: HTTPServer?
    var apiFingerprint = ""

    private init(
        configuration: DaemonConfiguration, logger: Logger, clock: any TBRClock, store: TBRStore, connection: Connection,
        structures: PersistentStructureStore, service: BorderRouterService, mdns: MDNSClient, advertisedNames: AdvertisedRouterNames,
        vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>, notifier: ServiceNotifier, browsesMDNS: Bool
    ) {
        self.browsesMDNS = browsesMDNS
        self.notifier = notifier
        self.vanishedNames = vanishedNames
        self.mdns = mdns
        self.advertisedNames = advertisedNames
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.store = store
        self.connection = connection
        self.structures = structures
        self.service = service
        self.structureChanges = structures.changes(bufferLimit: 4096)
        self.authenticator = APIAuthenticator(store: store, logger: logger.child("api"))
        self.infoCache = RouterInfoCache { [store, logger] id, snapshot in
            await Self.persist(snapshot, of: id, in: store, logger: logger)
        }
    }

    /// Opens the state database and the bus connection and builds the border router service over them.
    /// Nothing is exported and no name is taken yet.
    /// - Throws: ``DaemonStartError`` (what was opened is closed again).
    static func start(
        configuration: DaemonConfiguration, logger: Logger, clock: any TBRClock, notifier: ServiceNotifier, browsesMDNS: Bool = true
    ) async throws(DaemonStartError)
        -> DaemonRuntime
    {
        let path = TBRStore.databasePath(inStateDirectory: configuration.stateDirectory)
        do {
            if case .tightened(let was) = try StateDirectory.secure(configuration.stateDirectory) {
                logger.notice(
                    "made the state directory private", [("path", configuration.stateDirectory), ("was", StateDirectory.octal(was)), ("now", "0700")])
            }
        } catch {
            throw .stateUnusable(path, error.description)
        }
        let store: TBRStore
        do {
            store = try TBRStore(
                path: path, clock: clock,
                retention: JournalRetention(
                    maximumAge: .seconds(configuration.journalMaxAgeDays * 86_400), maximumCount: configuration.journalMaxEvents),
                logger: logger.child("store"))
        } catch {
            throw .stateUnusable(path, error.description)
        }
        let structures = PersistentStructureStore(store: store)
        do { try await structures.load() } catch { throw .stateUnusable(path, error.message) }
        let connection: Connection
        let vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
        do {
            connection = try await Connection(bus: configuration.bus, logger: logger.child("dbus"))
            vanishedNames = try await connection.namesLosingOwner()
        } catch {
            throw .busUnreachable("\(configuration.bus)", "\(error)")
        }
        var settings = BorderRouterServiceConfiguration()
        settings.defaultRouter.vendorID = configuration.vendorID == 0 ? nil : configuration.vendorID
        settings.defaultRouter.productID = configuration.productID == 0 ? nil : configuration.productID
        settings.defaultRouter.vendorName = configuration.vendorName
        settings.defaultRouter.productName = configuration.productName
        settings.policyCheckInterval = .seconds(configuration.policyCheckInterval)
        settings.restPollInterval = .milliseconds(Int64(configuration.restPollInterval * 1000))
        settings.restTimeout = .milliseconds(Int64(configuration.restTimeout * 1000))
        let firewall: any HostFirewall = configuration.firewall == .nftables ? NFTables(tool: configuration.nftPath) : NoHostFirewall()
        settings.commissioningSessionLifetime = .seconds(configuration.matterSessionTimeout)
        settings.commissioningTimeouts = CommissioningTimeouts(
            call: .seconds(configuration.matterCallTimeout), commission: .seconds(configuration.matterCommissionTimeout))
        let matterNodes = PersistentMatterNodeStore(store: store)
        let advertisedNames = AdvertisedRouterNames()
        let service = BorderRouterService(
            connection: connection, configuration: settings, clock: clock, logger: logger.child("service"),
            eventSink: JournalSink(store: store, logger: logger.child("journal")), structureStore: structures,
            advertisedNames: advertisedNames, firewall: firewall,
            commissioner: commissioner(configuration, clock: clock, logger: logger.child("matter")),
            matterNodes: matterNodes)
        return DaemonRuntime(
            configuration: configuration, logger: logger, clock: clock, store: store, connection: connection,
            structures: structures, service: service, mdns: MDNSClient(logger: logger.child("mdns")),
            advertisedNames: advertisedNames, vanishedNames: vanishedNames, notifier: notifier, browsesMDNS: browsesMDNS)
    }

    /// Serves until a graceful shutdown, cancellation, or a part failing; then stops in order (see
    /// ``Daemon``) and closes the connection, whatever happened.
    /// - Throws: ``DaemonStartError`` when `io.tbrd` cannot be taken; the error of a part that failed.
    func serve() async throws {
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let service = self.service
                group.addTask { try await service.run() }
                group.addTask { await self.followRegistry() }
                group.addTask { await self.forwardEpskcEvents() }
                group.addTask { await self.followSummaries() }
                if browsesMDNS { group.addTask { await self.followBorderAgents() } }
                group.addTask { await self.followPolicyStatus() }
                group.addTask { await self.followMigrations() }
                group.addTask { await self.forwardCommissioningProgress() }
                group.addTask { await self.followCommissioningOwners() }
                // Ends on a graceful shutdown, or when the task is cancelled (the group's hard deadline).
                group.addTask { try? await gracefulShutdown() }
                if let interval = notifier.watchdogInterval {
                    group.addTask { await self.feedWatchdog(every: interval) }
                }

                await service.waitUntilReady()
                do {
                    // The HTTPS API first: an address it cannot serve stops tbrd before io.tbrd is taken.
                    try await startAPI()
                    try await publish()
                } catch {
                    group.cancelAll()
                    throw error
                }
                logger.notice("tbrd is ready", [("bus", "\(configuration.bus)"), ("name", TBRDBusAPI.busName.rawValue)])
                // Type=notify: systemd orders the units after tbrd, and answers `systemctl start`, now.
                notifier.notify("READY=1\nSTATUS=serving \(TBRDBusAPI.busName.rawValue)") { [logger] in
                    logger.warning("the service manager cannot be told that tbrd is ready", [("error", $0)])
                }

                // What start-up allocated and freed goes back to the kernel (docs/performance.md).
                ProcessHeap.returnFreePages()

                // The first child to end, a shutdown or a part that stopped, starts the stop.
                var partFailure: (any Error)?
                do { _ = try await group.next() } catch { partFailure = error }
                // A part that stopped (with an error or without) because the bus went away: the bus's
                // failure, not tbrd's.
                let busLost = await !connection.isConnected
                notifier.notify("STOPPING=1")
                await stopServing()
                group.cancelAll()
                while !group.isEmpty { _ = try? await group.next() }
                if busLost { throw DaemonStopError.busLost(partFailure.map { "\($0)" } ?? "the bus closed the connection") }
                if let partFailure { throw partFailure }
            }
        } catch {
            failure = error
        }
        await mdns.close()
        await connection.close()
        if let failure { throw failure }
    }

    /// Registers the known routers, exports every object, takes the name (so the objects exist when it
    /// appears) and recovers the journal's open ePSKc sessions.
    private func publish() async throws {
        await rememberKnownRouters()
        await connection.export([managerInterface()], at: TBRDBusAPI.managerPath)
        do {
            for info in try await structures.structures() { await exportStructure(info.id) }
        } catch {
            throw DaemonStartError.stateUnusable(TBRStore.databasePath(inStateDirectory: configuration.stateDirectory), "\(error)")
        }
        for id in await service.deviceIDs() { await exportRouter(id) }
        let reply: NameRequestReply
        do {
            reply = try await connection.requestName(TBRDBusAPI.busName, flags: [.doNotQueue])
        } catch {
            throw DaemonStartError.nameRefused(TBRDBusAPI.busName.rawValue, "\(error)")
        }
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            let owner = (try? await connection.nameOwner(of: TBRDBusAPI.busName)) ?? nil
            throw DaemonStartError.alreadyRunning(TBRDBusAPI.busName.rawValue, owner ?? "another process")
        }
        isPublished = true
        await restoreOpenSessions()
    }

    /// Leaves the bus name first (new clients no longer reach tbrd), refuses further calls, and lets the
    /// calls in flight finish for up to ``DaemonConfiguration/shutdownTimeout``.
    private func stopServing() async {
        logger.info("stopping: releasing the bus name", [("name", TBRDBusAPI.busName.rawValue)])
        if isPublished {
            do { _ = try await connection.releaseName(TBRDBusAPI.busName) } catch {
                logger.warning("could not release the bus name", [("error", "\(error)")])
            }
        }
        await stopAPI()
        calls.close()
        let pending = calls.inFlight
        if pending > 0 {
            logger.info("stopping: waiting for calls in flight", [("calls", "\(pending)")])
            if await !calls.drained(within: .seconds(configuration.shutdownTimeout), clock: clock) {
                logger.warning(
                    "stopping: calls still running are cut off",
                    [("calls", "\(calls.inFlight)"), ("after-seconds", "\(configuration.shutdownTimeout)")])
                return
            }
        }
        // The gate counts a call as answered when its handler returns; the DBus layer hands the reply
        // to libdbus just after. Waiting for that means the close (which flushes) loses no reply.
        await connection.handlersFinished()
    }

    /// Routers seen in earlier runs are listed again (offline until their agents appear).
    private func rememberKnownRouters() async {
        let known: [KnownRouter]
        do { known = try await store.knownRouters() } catch {
            logger.error("could not read the known routers", [("error", "\(error)")])
            return
        }
        var snapshots: [DeviceID: RouterSnapshot] = [:]
        for router in known {
            let id = router.id
            if let bytes = router.lastKnown {
                do { snapshots[id] = try JSONDecoder().decode(RouterSnapshot.self, from: Data(bytes)) } catch {
                    logger.warning("what a router last reported cannot be read back", [("router", router.id.rawValue)])
                }
            }
            if router.restURL != nil { continue }  // restoreRemoteRouters
            do { try await service.rememberRouter(id) } catch {
                logger.warning("a known router cannot be registered", [("router", router.id.rawValue), ("error", error.message)])
            }
        }
        await restoreRemoteRouters(known)
        await infoCache.restore(snapshots)
    }

    /// The journal's open sessions (activated, never deactivated) go back to the service, which detects
    /// and reports their end as if tbrd had never stopped.
    private func restoreOpenSessions() async {
        let open: [EpskcJournalEntry]
        do { open = try await store.openEpskcSessions() } catch {
            logger.error("could not read open ephemeral-key sessions from the journal", [("error", "\(error)")])
            return
        }
        for entry in open {
            guard let bytes = entry.restoreRecord,
                let record = try? JSONDecoder().decode(EpskcSessionRecord.self, from: Data(bytes))
            else {
                logger.warning("an open ephemeral-key session in the journal cannot be recovered", [("router", entry.router.rawValue)])
                continue
            }
            do {
                try await service.restoreEpskcSession(record)
                logger.notice("recovered an open ephemeral-key session", [("router", entry.router.rawValue), ("sequence", "\(entry.sequence)")])
            } catch {
                logger.warning("could not recover an ephemeral-key session", [("router", entry.router.rawValue), ("error", "\(error)")])
            }
        }
    }
}
