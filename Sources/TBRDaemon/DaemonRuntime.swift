import TBRDBusAdapter
import TBRCoreServices
import BorderAgentDiscovery
import BorderRouterService
import DBus
import Firewall
import HTTPServer
import FoundationEssentials
import MDNS
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRFoundation
import TBRLifecycle
import TBRCore
import TBRHTTPAdapter
import MQTT
import TBRMQTTAdapter

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
    /// The call gate and the events, as the adapters take them.
    let gate: CoreGate
    /// The core's routers and their ePSKc (with the cache of what each router last reported).
    let routers: CoreRouters
    /// avahi-daemon, for the Border Agents on the network (DaemonRuntime+MDNS.swift).
    let mdns: MDNSClient
    /// Whether tbrd browses for border agents through avahi-daemon (the system bus). Always, but for a
    /// tbrd a test runs in its own process: avahi-client reaches the system bus through libdbus, which
    /// reads that bus's address once per process, and the mDNS client tests in the same process set it.
    let browsesMDNS: Bool
    /// The names the routers advertise over mDNS, as the service reads them.
    let advertisedNames: AdvertisedRouterNames

    /// The structures' migrations and channel changes.
    let migrations: StructureMigrations

    /// The border agents mDNS showed last (for the doctor, the network directory, credential fetches).
    let borderAgentsSeen = BorderAgentsSeen()
    /// The core's diagnostics: the mesh and the doctor.
    let diagnostics: CoreDiagnostics
    /// The core's Matter devices: commissioning sessions and nodes.
    let matter: CoreMatter
    /// The core's structures: their routers, settings, policy, rooms and network directories.
    let structureService: CoreStructures

    /// Routers of a structure that come back with no network.
    let recovery: RouterRecovery
    /// Backups: on request, and automatic ones with `backup-dir`.
    let backups: CoreBackups
    /// The checks run all the time, and the problems they open and close.
    let health: HealthMonitor
    /// The HTTPS API's token checks (always present; served only with `http-listen`).
    let authenticator: APIAuthenticator
    /// What happens, for the adapters that follow it (the HTTP adapter's event streams).
    let coreEvents: CoreEvents
    /// Work a request started and that goes on after its answer (an API commissioning session's
    /// completion): run as children of the service group (``runBackgroundWork()``), so tbrd stopping
    /// cancels it, never in an unstructured task. At most ``backgroundLimit`` wait to start.
    let backgroundWork = AsyncStream.makeStream(of: BackgroundWork.self, bufferingPolicy: .bufferingOldest(DaemonRuntime.backgroundLimit))
    static let backgroundLimit = 64
    /// The HTTPS API while it runs (DaemonRuntime+APIServer.swift): its server, the HTTP adapter it
    /// serves, and its certificate's fingerprint.
    var apiServer: HTTPServer?
    /// Where the API listens and its fingerprint, for `Manager1.ApiInfo`.
    let apiListing = APIListing()
    /// tbrd's D-Bus API over the core.
    let dbus: DBusAdapter
    var httpAdapter: HTTPAdapter?
    var apiFingerprint = ""
    /// The MQTT client's options as tbrd.conf sets them (the password read at start); nil: MQTT is off.
    let mqttOptions: MQTTClientOptions?
    /// The MQTT adapter while it runs (DaemonRuntime+MQTT.swift).
    var mqttAdapter: MQTTAdapter?

    private init(
        configuration: DaemonConfiguration, logger: Logger, clock: any TBRClock, store: TBRStore, connection: Connection,
        structures: PersistentStructureStore, service: BorderRouterService, mdns: MDNSClient, advertisedNames: AdvertisedRouterNames,
        vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>, notifier: ServiceNotifier, browsesMDNS: Bool,
        backupSchedule: CoreBackups.Schedule?, mqttOptions: MQTTClientOptions?
    ) {
        self.mqttOptions = mqttOptions
        self.browsesMDNS = browsesMDNS
        self.notifier = notifier
        self.mdns = mdns
        self.advertisedNames = advertisedNames
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.store = store
        self.connection = connection
        self.structures = structures
        self.service = service
        self.migrations = StructureMigrations(
            service: service, store: store, structures: structures, clock: clock, logger: logger.child("migration"))
        self.authenticator = APIAuthenticator(store: store, logger: logger.child("api"))
        self.routers = CoreRouters(service: service, store: store, logger: logger.child("routers"))
        self.structureService = CoreStructures(
            structures: structures, service: service, routers: routers, store: store, borderAgents: borderAgentsSeen,
            networkStaleAfter: Double(configuration.networkStaleAfterDays) * 86_400, clock: clock, logger: logger.child("structures"))
        self.recovery = RouterRecovery(
            service: service, routers: routers, structures: structureService, store: store, clock: clock, logger: logger.child("recovery"))
        self.backups = CoreBackups(
            service: service, store: store, structures: structureService, structureStore: structures, recovery: recovery,
            schedule: backupSchedule, stateDirectory: configuration.stateDirectory, version: TBRDaemonMain.version, clock: clock,
            logger: logger.child("backup"))
        self.diagnostics = CoreDiagnostics(
            routers: routers, service: service, structures: structures, borderAgents: borderAgentsSeen, mdns: mdns,
            firewallTool: configuration.firewall == .nftables ? configuration.nftPath : nil, clock: clock)
        self.health = HealthMonitor(
            service: service, diagnostics: diagnostics, store: store, clock: clock, logger: logger.child("health"),
            backstop: .seconds(configuration.healthInterval), retention: Double(configuration.healthRetentionDays) * 86_400, calls: calls)
        self.coreEvents = CoreEvents(
            service: service, structures: structureService, structureStore: structures, recovery: recovery, health: health)
        self.gate = CoreGate(calls: calls, events: coreEvents)
        self.matter = CoreMatter(
            service: service, structures: structureService, hasCommissioner: configuration.matterBackend != .none, logger: logger.child("matter"),
            background: backgroundWork.continuation)
        self.dbus = DBusAdapter(
            connection: connection, logger: logger, service: service, structures: structures, routers: routers,
            structureService: structureService, matter: matter, migrations: migrations, diagnostics: diagnostics,
            authenticator: authenticator, backups: backups, recovery: recovery, health: health, gate: gate, apiListing: apiListing, vanishedNames: vanishedNames)
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
        let backupSchedule = try configuration.backupSchedule()
        let mqttOptions = try configuration.mqttOptions()
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
        settings.localREST = configuration.agentREST
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
            advertisedNames: advertisedNames, vanishedNames: vanishedNames, notifier: notifier, browsesMDNS: browsesMDNS,
            backupSchedule: backupSchedule, mqttOptions: mqttOptions)
    }
}
