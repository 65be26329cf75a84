import BorderRouterService
public import DBus
import DeviceModel
import FoundationEssentials
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import Store
public import TBRFoundation
public import TBRLifecycle
import TBRDBusAPI

/// tbrd: owns `io.tbrd` on the bus, serves the trait model over D-Bus (docs/dbus-api.md), keeps its state
/// in SQLite, journals every ePSKc event before signalling it, and recovers open sessions after a
/// restart. ``run()`` is the long-running part: it returns (or throws) when cancelled, after leaving the
/// bus cleanly.
public actor Daemon: Service {
    /// The bus name tbrd owns.
    public static let busName = TBRDBusAPI.busName
    static let managerPath = TBRDBusAPI.managerPath
    static let routersPath = TBRDBusAPI.routerNamespace
    static let structuresPath = TBRDBusAPI.structureNamespace

    public nonisolated let configuration: DaemonConfiguration
    let logger: Logger
    let clock: any TBRClock

    // Set up by run().
    var connection: Connection?
    var store: TBRStore?
    var structures: PersistentStructureStore?
    var service: BorderRouterService?
    var simulators: [SimulatedAgent] = []
    var exportedRouters: Set<DeviceID> = []
    var exportedStructures: Set<StructureID> = []
    /// Router properties read from the agents, served for up to a second.
    let infoCache = RouterInfoCache()
    /// Routers whose summary changes are to be followed (fed by exportRouter, drained in run()).
    let newRouters = AsyncStream.makeStream(of: DeviceID.self)
    private var readiness: [CheckedContinuation<Void, Never>] = []
    var isReady = false

    /// A daemon with `configuration`, logging through `logger`.
    public init(configuration: DaemonConfiguration, logger: Logger, clock: any TBRClock = SystemClock()) {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
    }

    /// Waits until tbrd owns its name and serves its objects.
    public func waitUntilReady() async {
        if isReady { return }
        await withCheckedContinuation { readiness.append($0) }
    }

    /// Runs tbrd until the task is cancelled.
    /// - Throws: ``DaemonStartError`` when it cannot start (store, bus, name taken).
    public func run() async throws {
        let store = try openStore()
        self.store = store
        let connection: Connection
        do {
            connection = try await Connection(bus: configuration.bus, logger: logger.child("dbus"))
        } catch {
            throw DaemonStartError.busUnreachable("\(configuration.bus)", "\(error)")
        }
        self.connection = connection

        let structures = PersistentStructureStore(store: store)
        try await structures.load()
        self.structures = structures
        try await startSimulators()
        let service = BorderRouterService(
            connection: connection, configuration: serviceConfiguration(), clock: clock, logger: logger.child("service"),
            eventSink: JournalSink(store: store, logger: logger.child("journal")), structureStore: structures,
            advertisedNames: SimulatorAdvertisedNames(connection: connection))
        self.service = service

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            group.addTask { await self.followRegistry(service) }
            group.addTask { await self.forwardEpskcEvents(service) }
            group.addTask { await self.followSummaries(service) }
            await service.waitUntilReady()
            await self.rememberKnownRouters(service: service, store: store)
            try await self.publish(connection: connection, service: service, store: store)
            await self.restoreOpenSessions(service: service, store: store)
            self.markReady()
            self.logger.notice("tbrd is ready", [("bus", "\(self.configuration.bus)"), ("name", Self.busName.rawValue)])
            // Runs until cancelled; the first task to fail brings the others down.
            try await group.next()
            group.cancelAll()
        }
    }

    private func markReady() {
        isReady = true
        for c in readiness { c.resume() }
        readiness.removeAll()
    }

    private func openStore() throws(DaemonStartError) -> TBRStore {
        let path = TBRStore.databasePath(inStateDirectory: configuration.stateDirectory)
        do {
            return try TBRStore(
                path: path, clock: clock,
                retention: JournalRetention(
                    maximumAge: .seconds(configuration.journalMaxAgeDays * 86_400),
                    maximumCount: configuration.journalMaxEvents),
                logger: logger.child("store"))
        } catch {
            throw .stateUnusable(path, error.description)
        }
    }

    private func serviceConfiguration() -> BorderRouterServiceConfiguration {
        var c = BorderRouterServiceConfiguration()
        c.defaultRouter.vendorID = configuration.vendorID == 0 ? nil : configuration.vendorID
        c.defaultRouter.productID = configuration.productID == 0 ? nil : configuration.productID
        return c
    }

    /// Exports the manager and the structures, then takes the name (so the objects exist when it appears).
    private func publish(connection: Connection, service: BorderRouterService, store: TBRStore) async throws {
        await connection.export([managerInterface()], at: Self.managerPath)
        for info in try await structures!.structures() { await exportStructure(info.id) }
        for id in await service.deviceIDs() { await exportRouter(id) }
        let reply: NameRequestReply
        do {
            reply = try await connection.requestName(Self.busName, flags: [.doNotQueue])
        } catch {
            throw DaemonStartError.nameRefused(Self.busName.rawValue, "\(error)")
        }
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            let owner = (try? await connection.nameOwner(of: Self.busName)) ?? nil
            throw DaemonStartError.alreadyRunning(Self.busName.rawValue, owner ?? "another process")
        }
    }

    /// Routers seen in earlier runs are listed again (offline until their agents appear).
    private func rememberKnownRouters(service: BorderRouterService, store: TBRStore) async {
        let known: [KnownRouter]
        do { known = try await store.knownRouters() } catch {
            logger.error("could not read the known routers", [("error", "\(error)")])
            return
        }
        for router in known {
            guard let id = DeviceID(rawValue: router.id.rawValue) else { continue }
            try? await service.rememberRouter(id)
        }
    }

    /// The journal's open sessions (activated, never deactivated) go back to the service, which detects
    /// and reports their end as if tbrd had never stopped.
    private func restoreOpenSessions(service: BorderRouterService, store: TBRStore) async {
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

    /// `--simulate N`: N in-process simulated otbr-agents (wpan0…) forming one network, on tbrd's bus.
    private func startSimulators() async throws {
        guard configuration.simulatedRouters > 0 else { return }
        let dataset: OperationalDataset
        do { dataset = try OperationalDataset.random(name: NetworkName("tbrd-demo")) } catch {
            throw DaemonStartError.simulatorFailed("\(error)")
        }
        for i in 0..<configuration.simulatedRouters {
            guard let name = try? ThreadInterfaceName("wpan\(i)") else { continue }
            var c = SimulatorConfiguration(interfaceName: name)
            c.initialDataset = dataset
            c.roleDelay = .milliseconds(configuration.simulatedRoleDelayMilliseconds)
            c.restartDelay = .seconds(1)
            c.productName = "Simulated BorderRouter \(i)"
            let agent = SimulatedAgent(configuration: c, bus: configuration.bus, logger: logger.child("sim.\(name.rawValue)"))
            do { try await agent.start() } catch { throw DaemonStartError.simulatorFailed("\(name.rawValue): \(error)") }
            simulators.append(agent)
        }
        logger.info("simulated routers started", [("count", "\(simulators.count)")])
    }

    /// Leaves the bus and stops the simulators (after ``run()`` ends).
    public func shutDown() async {
        if let connection {
            _ = try? await connection.releaseName(Self.busName)
            await connection.close()
        }
        for agent in simulators { await agent.stop() }
        simulators.removeAll()
    }
}

/// Why tbrd could not start; each is one sentence, and tbrd exits with a sysexits code for it.
public enum DaemonStartError: Error, CustomStringConvertible, Sendable {
    case stateUnusable(String, String)
    case busUnreachable(String, String)
    case nameRefused(String, String)
    case alreadyRunning(String, String)
    case simulatorFailed(String)

    public var description: String {
        switch self {
        case .stateUnusable(let path, let why): "cannot use the state database \(path): \(why)"
        case .busUnreachable(let bus, let why): "cannot connect to the \(bus) bus: \(why)"
        case .nameRefused(let name, let why): "the bus refused the name \(name): \(why)"
        case .alreadyRunning(let name, let owner): "\(name) is already owned by \(owner); is tbrd already running?"
        case .simulatorFailed(let why): "cannot start a simulated router: \(why)"
        }
    }

    /// The exit status (sysexits.h).
    public var exitCode: Int32 {
        switch self {
        case .stateUnusable: 73  // EX_CANTCREAT
        case .busUnreachable, .nameRefused, .alreadyRunning: 69  // EX_UNAVAILABLE
        case .simulatorFailed: 70  // EX_SOFTWARE
        }
    }
}
