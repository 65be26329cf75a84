package import BorderRouterService
import HostNetwork
import OpenThreadBR
package import Store
package import TBRCore
import TBRDocuments
package import TBRFoundation

/// tbrd watching every router and the host all the time (TBRCore's ``TBRCore/HealthCore``, issue 49):
/// the doctor's checks run on the events that can change them (a router's role or presence changing, a
/// router added or removed) and on a timed pass as a backstop; a check that fails opens a problem, one
/// that passes again closes it, and `router-lost` follows a router that stops being a router. Problems are
/// kept in the store (open ones survive a restart; closed ones are history, pruned after `retention`), and
/// each opening and closing is published on ``changes`` for the adapters.
package actor HealthMonitor {
    package let service: BorderRouterService
    package let diagnostics: CoreDiagnostics
    package let store: TBRStore
    package let clock: any TBRClock
    package let logger: Logger
    /// How often every router and the host are checked even when nothing announced a change.
    package let backstop: Duration
    /// How long closed problems are kept, in seconds.
    package let retention: Double
    /// tbrd's call gate: once it closes tbrd is stopping, its routers go offline because it does, and no
    /// problem is opened for that.
    package let calls: CallGate
    /// Each problem opened or closed, for the adapters (`ProblemOpened`/`ProblemClosed`, the `problem` event).
    package nonisolated let changes = EventBroadcaster<ProblemChange>()
    /// Each router whose reading changed (presence, role, network, channel, partition, counts), for the
    /// adapters that show it (``TBRCore/CoreEvent/routerChanged(id:)``).
    package nonisolated let readings = EventBroadcaster<DeviceID>()
    /// Routers being checked now, and those to check again once that ends (a change meanwhile).
    private var checking: Set<DeviceID> = []
    private var again: Set<DeviceID> = []
    /// What the last reading of each router found (the history records changes from it; `partition`
    /// compares the routers of a structure by it).
    var observations: [DeviceID: RouterObservation] = [:]
    /// The routers whose `_meshcop._udp` service mDNS showed since their agent last came up.
    private var meshcopSeen: Set<DeviceID> = []
    /// Whether each Matter node the structures hold was available at the last look.
    var nodesAvailable: [UInt64: Bool] = [:]
    /// A look at the Matter nodes is under way; another was asked for meanwhile.
    var matterChecking = false
    var matterAgain = false
    /// Structures created, deleted or given other routers (`partition` compares a structure's routers).
    private let structureChanges: EventStream<StructureChange>
    /// ePSKc sessions as they start and end, counted by how they ended for the metrics.
    private let epskcEvents: EventStream<EpskcEvent>
    /// ePSKc sessions ended since tbrd started, by reason.
    var epskcEnds: [String: Int] = [:]
    /// The most bytes the database's used pages may reach by the history's samples: the oldest go first.
    package static let historyBound = 64 << 20

    /// The checks about this host rather than the router they were run with.
    package static let hostChecks: Set<String> = ["thread-networks", "firewall", "avahi"]
    /// The check that follows a router that stops being a router.
    package static let routerLost = "router-lost"

    package init(
        service: BorderRouterService, diagnostics: CoreDiagnostics, store: TBRStore, clock: any TBRClock, logger: Logger, backstop: Duration,
        retention: Double, calls: CallGate
    ) {
        self.service = service
        self.diagnostics = diagnostics
        self.store = store
        self.clock = clock
        self.logger = logger
        self.backstop = backstop
        self.retention = retention
        self.calls = calls
        self.structureChanges = diagnostics.structures.changes(bufferLimit: 256)
        self.epskcEvents = service.epskcEvents(bufferLimit: 256)
    }

    /// Watches until tbrd stops: each router's role and presence, routers added and removed, and the
    /// backstop pass (which also prunes old history).
    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.backstopPasses() }
            group.addTask { await self.followRoutes() }
            group.addTask { await self.followBorderAgents() }
            group.addTask { await self.followStructures() }
            group.addTask { await self.countEpskcEnds() }
            group.addTask {
                await followEveryRouter(of: self.service, removed: { id in await self.forget(id) }) { id in await self.follow(id) }
            }
        }
    }

    /// Checks router `id` when it comes or goes and when its role changes; opens `router-lost` when it
    /// was a router or leader and is now less (or gone), and closes it when it is one again.
    private func follow(_ id: DeviceID) async {
        guard let updates = await service.summaryUpdates(of: id) else { return }
        var last: (online: Bool, role: DeviceRole?)?
        for await summary in updates {
            let now = (online: summary.isOnline, role: summary.role)
            defer { last = now }
            guard last.map({ $0.online != now.online || $0.role != now.role }) ?? true else { continue }
            readings.publish(id)
            if let word = RouterObservation.stateWord(online: now.online, role: now.role),
                word != last.flatMap({ RouterObservation.stateWord(online: $0.online, role: $0.role) })
            {
                await append(HealthSampleRecord(subject: id.rawValue, state: word))
            }
            let wasRouter = last.map { $0.online && Self.isRouter($0.role) } ?? false
            if now.online, Self.isRouter(now.role) {
                await close(subject: id.rawValue, check: Self.routerLost)
            } else if wasRouter, let before = last?.role {
                let after = now.online ? (now.role.map { "\($0)" } ?? "unknown") : "gone (its agent does not answer)"
                await open(
                    subject: id.rawValue, check: Self.routerLost, message: "\(id) was \(before) and is now \(after)",
                    fix: "tbrctl doctor -d \(id) says what it reads; check its radio and otbr-agent")
            }
            await evaluate(id)
            // A router that changes is the first suspect when devices go unavailable: look at them too.
            await checkMatterNodes()
        }
    }

    private static func isRouter(_ role: DeviceRole?) -> Bool { role == .router || role == .leader }

    /// Every router again on each burst of IPv6 route changes from the kernel (`omr-route` follows the
    /// host's routing table); nothing when netlink cannot be followed (the backstop remains).
    private func followRoutes() async {
        guard let changes = RouteMonitor.changes() else {
            logger.warning("the kernel's route changes cannot be followed: omr-route is checked by the timed pass only")
            return
        }
        for await _ in changes {
            await evaluateAll()
        }
    }

    /// Every router again when a structure changes: routers joining or leaving it (`partition`), its
    /// preferred network (`structure-network`), its policy's status (`nat64`, `internet-access-policy`).
    private func followStructures() async {
        for await _ in structureChanges {
            await evaluateAll()
        }
    }

    private func countEpskcEnds() async {
        for await event in epskcEvents {
            if case .deactivated(let e) = event { epskcEnds[e.reason.rawValue, default: 0] += 1 }
        }
    }

    /// `meshcop-published` of every router on each change of what mDNS shows.
    private func followBorderAgents() async {
        while !Task.isCancelled {
            await diagnostics.borderAgents.changed.wait()
            guard !Task.isCancelled else { return }
            for summary in await service.routerSummaries() { await checkMeshcop(summary) }
        }
    }

    /// Opens or closes `meshcop-published` of one router by what mDNS shows now.
    private func checkMeshcop(_ summary: BorderRouterSummary) async {
        let id = summary.id
        guard summary.isOnline else {
            meshcopSeen.remove(id)
            return
        }
        var published: Bool?
        if let baID = summary.borderAgentID, let agents = diagnostics.borderAgents.all {
            published = agents.contains { $0.txt.borderAgentID == baID }
        }
        if published == true { meshcopSeen.insert(id) }
        guard let check = HealthChecks.meshcopPublished(id.rawValue, online: true, published: published, seenSinceUp: meshcopSeen.contains(id))
        else { return }
        await apply(check, subject: id.rawValue)
    }


    /// A router removed from tbrd: its problems close and its readings are forgotten.
    private func forget(_ id: DeviceID) async {
        observations[id] = nil
        meshcopSeen.remove(id)
        await closeAll(of: id.rawValue)
        await checkPartitions()
    }

    /// Every router and the host, every ``backstop``; closed problems older than ``retention`` pruned.
    private func backstopPasses() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: backstop) } catch { return }
            await evaluateAll()
            await checkMatterNodes()
            do {
                try await store.pruneProblems(closedBefore: clock.wallTime() - retention)
                try await store.pruneSamples(before: clock.wallTime() - retention)
            } catch {
                logger.warning("old history could not be pruned", [("error", "\(error)")])
            }
        }
    }

    /// Every router, with this host's facts read once for all of them (a route change or the backstop
    /// would otherwise read the routing table and the firewall once per router).
    private func evaluateAll() async {
        let host = await diagnostics.hostReading()
        for id in await service.deviceIDs() { await evaluate(id, host: host) }
    }

    /// Runs the doctor's checks of router `id` (and the host, from `host` when given, else read now) and
    /// opens or closes problems by them; a request while they run makes them run once more after.
    package func evaluate(_ id: DeviceID, host: HostFacts? = nil) async {
        guard checking.insert(id).inserted else {
            again.insert(id)
            return
        }
        defer { checking.remove(id) }
        var host = host
        repeat {
            again.remove(id)
            // A pass again reads the host afresh: what it was asked for may be a change of the host.
            defer { host = nil }
            guard let (checks, observation) = await diagnostics.healthReading(id, host: host) else { return }
            for check in checks {
                await apply(check, subject: Self.hostChecks.contains(check.id) ? HealthProblem.host : id.rawValue)
            }
            await record(observation, of: id)
            if let summary = await service.routerSummaries().first(where: { $0.id == id }) { await checkMeshcop(summary) }
        } while again.contains(id)
    }

    private func apply(_ check: DoctorCheck, subject: String) async {
        if check.status == .fail {
            await open(subject: subject, check: check.id, message: check.message, fix: check.fix)
        } else {
            await close(subject: subject, check: check.id)
        }
    }

    private func apply(_ check: DiagnosticCheck, subject: String) async { await apply(check.document, subject: subject) }

    /// Keeps router `id`'s reading, appends to the history what changed, and compares the partitions of
    /// the routers of each structure again.
    private func record(_ observation: RouterObservation, of id: DeviceID) async {
        let before = observations[id]
        observations[id] = observation
        if before != observation { readings.publish(id) }
        if let change = observation.sample(since: before, subject: id.rawValue) { await append(change) }
        if before?.partitionID != observation.partitionID || before?.structure != observation.structure
            || before?.network != observation.network || before?.role != observation.role || before?.online != observation.online
        {
            await checkPartitions()
        }
    }

    /// Appends `change` to the history; a failure (a full disk) is logged and the sample lost.
    func append(_ change: HealthSampleRecord) async {
        do { try await store.appendSample(change, sizeBound: Self.historyBound) } catch {
            logger.warning("a health sample could not be recorded", [("subject", change.subject), ("error", "\(error)")])
        }
    }

    /// `partition` of every router by the readings kept.
    private func checkPartitions() async {
        let peers = observations.map { (id: $0.key.rawValue, observation: $0.value) }
        for (id, observation) in peers {
            if let check = HealthChecks.partition(id, observation, peers: peers) {
                await apply(check, subject: id)
            } else {
                await close(subject: id, check: "partition")
            }
        }
    }

    func open(subject: String, check: String, message: String, fix: String) async {
        guard calls.isOpen else { return }
        do {
            let (record, opened) = try await store.openProblem(subject: subject, check: check, message: message, fix: fix)
            guard opened else { return }
            logger.notice("problem opened", [("subject", subject), ("check", check), ("id", "\(record.id)")])
            changes.publish(ProblemChange(opened: true, problem: Self.problem(record)))
        } catch {
            logger.error("a problem could not be recorded", [("subject", subject), ("check", check), ("error", "\(error)")])
        }
    }

    func close(subject: String, check: String) async {
        do {
            guard let record = try await store.closeProblem(subject: subject, check: check) else { return }
            logger.notice("problem closed", [("subject", subject), ("check", check), ("id", "\(record.id)")])
            changes.publish(ProblemChange(opened: false, problem: Self.problem(record)))
        } catch {
            logger.error("a problem could not be closed", [("subject", subject), ("check", check), ("error", "\(error)")])
        }
    }

    /// Closes every open problem of `subject` (a router removed from tbrd).
    private func closeAll(of subject: String) async {
        let open = (try? await store.openProblems()) ?? []
        for record in open where record.subject == subject { await close(subject: subject, check: record.check) }
    }
}
