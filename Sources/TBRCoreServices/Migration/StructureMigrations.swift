package import BorderRouterService
import FoundationEssentials
package import MeshCoP
package import NetworkMigration
package import Store
import TBRCore
package import TBRDocuments
package import TBRFoundation

/// The structures' migrations and channel changes (issue 32): each structure's ``MigrationMachine``,
/// and the I/O it asks for. The machine decides; this actor sends the pending datasets, reads the
/// routers, follows their networks, keeps the record in the store (whose `network_migrations` row is
/// the structure's lock, so a migration survives a restart of tbrd) and runs the one timer.
/// docs/architecture.md, "Moving a structure onto one network".
package actor StructureMigrations {
    package let service: BorderRouterService
    package let store: TBRStore
    package let structures: PersistentStructureStore
    package let clock: any TBRClock
    package let logger: Logger
    /// Each structure's machine, made on first use.
    private var machines: [StructureID: MigrationMachine] = [:]
    /// When each structure's machine wants its timer, in wall time; the alarm waits for the first.
    private var wakes: [StructureID: Double] = [:]
    nonisolated let alarm: Alarm
    /// The routers to follow, one element per `follow` directive: at most one per router of a running
    /// migration and of the one before it; 1,024 bounds them.
    nonisolated let followRequests = AsyncStream.makeStream(of: Follow.self, bufferingPolicy: .bufferingNewest(1024))
    /// Each follow while it runs, and what ends it once the machine no longer follows that router.
    private var followStops: [Follow: WakeSignal] = [:]
    /// Each migration as recorded, for the adapters (the D-Bus adapter's `Migration` property signal);
    /// the newest 1,024 are kept for a slow reader.
    package nonisolated let changes = AsyncStream.makeStream(of: (StructureID, Migration).self, bufferingPolicy: .bufferingNewest(1024))

    /// One router followed for one migration (named by its start time).
    package struct Follow: Hashable, Sendable {
        var structure: StructureID
        var router: String
        var startedAt: Double
    }

    package init(service: BorderRouterService, store: TBRStore, structures: PersistentStructureStore, clock: any TBRClock, logger: Logger) {
        self.service = service
        self.store = store
        self.structures = structures
        self.clock = clock
        self.logger = logger
        self.alarm = Alarm(clock: clock)
    }

    /// The delays a caller may ask for: at least the 30 s OpenThread's leader enforces for a pending
    /// dataset, at most a day.
    package static let delayRange: ClosedRange<UInt32> = 30...86_400

    /// Structure `id`'s running or last migration (`.none` when it never had one).
    package func migration(of id: StructureID) async throws -> Migration {
        if let current = machines[id]?.current { return current }
        let stored: TBRStore.StoredNetworkMigration?
        do { stored = try await store.networkMigration(of: try PersistentStructureStore.recordID(id)) } catch { throw ServiceError.core(error) }
        return stored.flatMap { Self.decode($0.body) } ?? .none
    }

    // MARK: running

    /// Picks up the migrations the store holds as running (tbrd restarted during a delay), then follows
    /// routers and runs the timer until tbrd stops.
    package func run() async {
        do {
            for stored in try await store.runningNetworkMigrations() {
                guard let migration = Self.decode(stored.body) else { continue }
                let id = StructureID(String(stored.structure.rawValue))
                logger.notice("a structure's migration picked up again after a restart", [("structure", id.rawValue)])
                await perform(id) { $0.resume(migration) }
            }
        } catch {
            logger.error("the running migrations could not be read", [("error", "\(error)")])
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.alarm.run { await self.timerFired() } }
            for await follow in followRequests.stream {
                group.addTask { await self.run(follow) }
            }
        }
    }

    /// Feeds `input` to structure `id`'s machine and carries out what it returns.
    package func perform(_ id: StructureID, _ input: (inout MigrationMachine) -> [MigrationDirective]) async {
        var machine = machines[id] ?? MigrationMachine()
        let directives = input(&machine)
        machines[id] = machine
        await carryOut(id, directives)
    }

    /// Carries out `directives` in order; what an I/O directive learns is fed back at once, and the
    /// directives that returns are carried out before the rest.
    private func carryOut(_ id: StructureID, _ directives: [MigrationDirective]) async {
        for directive in directives {
            switch directive {
            case .send(let router, let dataset, let delayMs):
                await send(id, router, dataset, delayMs)
            case .readForCancel(let router):
                let active = await dataset(of: router, pending: false)
                await perform(id) { $0.cancelRead(router: router, active: active, now: clock.wallTime()) }
            case .sendCancel(let router, let dataset):
                do {
                    _ = try await service.sendPendingDataset(dataset.encoded(), to: try deviceID(router), delay: .seconds(30))
                    await perform(id) { $0.cancelSent(router: router, now: clock.wallTime()) }
                } catch {
                    let reason = ServiceError.core(error).message
                    await perform(id) { $0.cancelNotSent(router: router, reason: reason, now: clock.wallTime()) }
                }
            case .read(let router, let startedAt):
                let online = await service.routerSummaries().first { $0.id.rawValue == router }?.isOnline == true
                let active = online ? await dataset(of: router, pending: false) : nil
                let pending = online ? await dataset(of: router, pending: true) : nil
                await perform(id) {
                    $0.routerRead(router: router, startedAt: startedAt, online: online, active: active, pending: pending, now: clock.wallTime())
                }
            case .follow(let router, let startedAt):
                let follow = Follow(structure: id, router: router, startedAt: startedAt)
                if followStops[follow] == nil {
                    followStops[follow] = WakeSignal()
                    followRequests.continuation.yield(follow)
                }
            case .record(let migration, let running):
                await record(id, migration, running: running)
            case .wake(let at):
                wakes[id] = at
                setAlarm()
            case .cancelWake:
                wakes[id] = nil
                setAlarm()
            }
        }
        endFollows(of: id)
    }

    private func send(_ id: StructureID, _ router: String, _ dataset: OperationalDataset, _ delayMs: UInt32) async {
        do {
            let device = try deviceID(router)
            let given = try await service.sendPendingDataset(dataset.encoded(), to: device, delay: .milliseconds(Int64(delayMs)))
            let pending = await self.dataset(of: router, pending: true)
            let ms = given.wholeMilliseconds ?? 0
            await perform(id) { $0.sent(router: router, delayMs: ms, pendingTimestamp: pending?.pendingTimestamp?.seconds, now: clock.wallTime()) }
        } catch {
            let reason = ServiceError.core(error).message
            await perform(id) { $0.notSent(router: router, reason: reason, now: clock.wallTime()) }
        }
    }

    /// Stores `migration` (releasing the structure's lock unless `running`) and hands it to the adapters.
    private func record(_ id: StructureID, _ migration: Migration, running: Bool) async {
        if !running, migration.state != .pending {
            logger.notice("a structure's migration ended", [("structure", id.rawValue), ("state", migration.state.rawValue)])
        }
        do {
            try await store.updateNetworkMigration(Self.encode(migration), running: running, in: try PersistentStructureStore.recordID(id))
        } catch {
            logger.error("a structure's migration could not be stored", [("structure", id.rawValue), ("error", "\(error)")])
        }
        changes.continuation.yield((id, migration))
    }

    // MARK: the timer and the follows

    private func setAlarm() {
        let next = wakes.values.min()
        alarm.set(next.map { clock.now().advanced(by: .seconds(max(0, $0 - clock.wallTime()))) })
    }

    /// The alarm: every structure whose wake-up has come is told.
    private func timerFired() async {
        let now = clock.wallTime()
        for (id, at) in wakes where at <= now {
            wakes[id] = nil
            await perform(id) { $0.timerFired(now: now) }
        }
        setAlarm()
    }

    /// Ends the follows of structure `id` its machine no longer wants.
    private func endFollows(of id: StructureID) {
        guard let machine = machines[id] else { return }
        for (follow, stop) in followStops where follow.structure == id && !machine.follows(router: follow.router, startedAt: follow.startedAt) {
            stop.signal()
            followStops[follow] = nil
        }
    }

    /// Feeds each network change of `follow`'s router to its machine until the machine stops following it
    /// or tbrd stops. A router's stream ends when its entry is replaced (an agent restart, tbrd restoring
    /// it): the new one is followed; after a restart of tbrd the router may not be known yet.
    private func run(_ follow: Follow) async {
        guard let stop = followStops[follow], let device = DeviceID(rawValue: follow.router) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await stop.wait() }
            group.addTask {
                var replaced = false
                while !Task.isCancelled, let updates = await self.networkUpdates(of: device, afterEnd: replaced) {
                    for await info in updates {
                        await self.perform(follow.structure) {
                            $0.networkSeen(
                                router: follow.router, startedAt: follow.startedAt, extPanId: info?.extendedPanId.description,
                                channel: info?.channel.number, now: self.clock.wallTime())
                        }
                    }
                    replaced = true
                }
            }
            await group.next()
            group.cancelAll()
        }
        followStops[follow] = nil
    }

    /// Router `router`'s network changes, or after its last stream ended (`afterEnd`) once it is added
    /// or comes online again; nil when the service stops first.
    private func networkUpdates(of router: DeviceID, afterEnd: Bool) async -> AttributeStream<ThreadNetworkManagementTrait.NetworkInfo?>? {
        let events = service.registryEvents()
        if !afterEnd, let updates = await service.networkUpdates(of: router) { return updates }
        for await event in events {
            switch event {
            case .added(let id) where id == router, .online(let id) where id == router:
                if let updates = await service.networkUpdates(of: router) { return updates }
            default: continue
            }
        }
        return nil
    }

    // MARK: helpers

    package func dataset(of router: String, pending: Bool) async -> OperationalDataset? {
        guard let device = DeviceID(rawValue: router), let tlvs = try? await service.datasetTLVs(of: device, pending: pending) else { return nil }
        return try? OperationalDataset(bytes: tlvs)
    }

    private func deviceID(_ router: String) throws -> DeviceID {
        guard let device = DeviceID(rawValue: router) else { throw ServiceError.missing("there is no border router \(router)") }
        return device
    }

    package static func encode(_ migration: Migration) -> String {
        (try? JSONEncoder().encode(migration)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    package static func decode(_ body: String) -> Migration? {
        try? JSONDecoder().decode(Migration.self, from: Data(body.utf8))
    }
}
