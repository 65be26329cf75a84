package import BorderRouterService
package import DBus
package import Store
package import TBRCoreServices
import TBRDBusAPI
package import TBRFoundation
import TBRCore

/// tbrd's D-Bus API (`io.tbrd`, docs/dbus-api.md) over the core: each member maps its arguments to a
/// core service's call and the answer to D-Bus values; what the services publish (structure signals,
/// migrations, ePSKc events, router summaries, commissioning stages) becomes objects exported and
/// removed, signals and `PropertiesChanged`. It decides nothing: its only state is what it exported and
/// the owners of commissioning sessions by unique bus name. Every call passes the core's gate.
package actor DBusAdapter {
    let connection: Connection
    let logger: Logger
    let service: BorderRouterService
    let structures: PersistentStructureStore
    let routers: CoreRouters
    let structureService: CoreStructures
    let matter: CoreMatter
    let migrations: StructureMigrations
    let diagnostics: CoreDiagnostics
    let authenticator: APIAuthenticator
    let backups: CoreBackups
    let recovery: RouterRecovery
    let health: HealthMonitor
    let gate: CoreGate
    /// Where the HTTPS API listens and its certificate's fingerprint (`Manager1.ApiInfo`), as tbrd set them.
    let apiListing: APIListing
    /// Routers whose summary changes are to be followed (fed by exportRouter, drained by followSummaries).
    /// Unbounded: one element per router added, none may be lost.
    let newRouters = AsyncStream.makeStream(of: DeviceID.self, bufferingPolicy: .unbounded)
    /// The structures' changes, subscribed before anything runs (drained by followPolicyStatus).
    let structureChanges: EventStream<StructureChange>
    /// What the structures' service publishes, subscribed before anything runs (drained by followStructureSignals).
    let structureSignals: EventStream<StructureSignal>
    /// What recovery reports, subscribed before anything runs (drained by followRecoveryReports).
    let recoveryReports: EventStream<RecoveryReport>
    /// What the health monitor opens and closes, subscribed before anything runs (drained by followProblems).
    let problemChanges: EventStream<ProblemChange>
    /// Names leaving the bus, subscribed before anything is served (drained by followCommissioningOwners).
    let vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
    /// The commissioning sessions each caller (by unique name) opened and has not completed or cancelled.
    var commissioningOwners: [String: Set<SessionKey>] = [:]
    var exportedRouters: Set<DeviceID> = []
    var exportedStructures: Set<StructureID> = []
    /// Whether `io.tbrd` has been taken (later routers are announced with `BorderRouterAdded`).
    var isPublished = false

    package init(
        connection: Connection, logger: Logger, service: BorderRouterService, structures: PersistentStructureStore,
        routers: CoreRouters, structureService: CoreStructures, matter: CoreMatter, migrations: StructureMigrations,
        diagnostics: CoreDiagnostics, authenticator: APIAuthenticator, backups: CoreBackups, recovery: RouterRecovery, health: HealthMonitor,
        gate: CoreGate,
        apiListing: APIListing,
        vanishedNames: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
    ) {
        self.connection = connection
        self.logger = logger
        self.service = service
        self.structures = structures
        self.routers = routers
        self.structureService = structureService
        self.matter = matter
        self.migrations = migrations
        self.diagnostics = diagnostics
        self.authenticator = authenticator
        self.backups = backups
        self.recovery = recovery
        self.health = health
        self.gate = gate
        self.apiListing = apiListing
        self.vanishedNames = vanishedNames
        self.structureChanges = structures.changes(bufferLimit: 4096)
        self.structureSignals = structureService.signals.subscribe(bufferLimit: 4096) { $0 }
        self.recoveryReports = recovery.reports.subscribe(bufferLimit: 1024) { $0 }
        self.problemChanges = health.changes.subscribe(bufferLimit: 1024) { $0 }
    }

    /// Follows what the core publishes and signals it, until tbrd stops.
    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followRegistry() }
            group.addTask { await self.forwardEpskcEvents() }
            group.addTask { await self.followSummaries() }
            group.addTask { await self.followPolicyStatus() }
            group.addTask { await self.followStructureSignals() }
            group.addTask { await self.followMigrations() }
            group.addTask { await self.forwardCommissioningProgress() }
            group.addTask { await self.followCommissioningOwners() }
            group.addTask { await self.followRecoveryReports() }
            group.addTask { await self.followProblems() }
        }
    }

    /// Why `io.tbrd` could not be published.
    package enum PublishError: Error {
        /// The structures could not be read from the store.
        case structuresUnreadable(String)
        /// The bus refused the name.
        case nameRefused(String)
        /// Another process owns the name.
        case alreadyRunning(owner: String)
    }

    /// Exports every object, then takes the name (so the objects exist when it appears).
    package func publish() async throws(PublishError) {
        await connection.export([managerInterface()], at: TBRDBusAPI.managerPath)
        do {
            for info in try await structures.structures() { await exportStructure(info.id) }
        } catch {
            throw .structuresUnreadable("\(error)")
        }
        for id in await service.deviceIDs() { await exportRouter(id) }
        let reply: NameRequestReply
        do {
            reply = try await connection.requestName(TBRDBusAPI.busName, flags: [.doNotQueue])
        } catch {
            throw .nameRefused("\(error)")
        }
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            let owner = (try? await connection.nameOwner(of: TBRDBusAPI.busName)) ?? nil
            throw .alreadyRunning(owner: owner ?? "another process")
        }
        isPublished = true
    }

    /// How many routers are exported: a round through this actor for tbrd's watchdog.
    package func exportedRouterCount() -> Int { exportedRouters.count }

    /// Leaves the bus name (new clients no longer reach tbrd), if it was taken.
    package func releaseName() async {
        logger.info("stopping: releasing the bus name", [("name", TBRDBusAPI.busName.rawValue)])
        guard isPublished else { return }
        do { _ = try await connection.releaseName(TBRDBusAPI.busName) } catch {
            logger.warning("could not release the bus name", [("error", "\(error)")])
        }
    }
}

/// Where the HTTPS API listens (`ADDR:PORT`; empty when off) and its certificate's fingerprint: tbrd
/// sets it when the server starts and stops, `Manager1.ApiInfo` reads it.
package final class APIListing: Sendable {
    private let value = Locked<(listen: String, fingerprint: String)>(("", ""))

    package init() {}

    /// The listing now.
    package var current: (listen: String, fingerprint: String) { value.withLock { $0 } }

    /// The API now listens at `listen` with a certificate of `fingerprint` (empty: off).
    package func set(listen: String, fingerprint: String) { value.withLock { $0 = (listen, fingerprint) } }
}
