import DBus
import DeviceModel
import FoundationEssentials
import MeshCoP
import Store
import TBRDBusAPI
import TBRFoundation
import TBRCore

// Moving a structure's routers onto one network, and its network to another channel (issue 32):
// Structure1.Migrate, SetChannel, CancelMigration and the Migration property. The plan is made by
// MigrationPlanner; the lock and the record are the store's `network_migrations` row, so a migration
// survives a restart of tbrd and is picked up again (followMigrations). docs/architecture.md, "Moving a
// structure onto one network".

extension DaemonRuntime {
    nonisolated func migrationMethods(_ id: StructureID) -> [Method] {
        typealias API = TBRDBusAPI.Structure
        return [
            method(API.migrate) { [self] call in
                [try await self.migrate(id, to: try call.argument(0), delaySeconds: try call.argument(1), dryRun: try call.argument(2)).dbusValue]
            },
            method(API.setChannel) { [self] call in
                [try await self.setChannel(id, try call.argument(0), delaySeconds: try call.argument(1), dryRun: try call.argument(2)).dbusValue]
            },
            method(API.cancelMigration) { [self] _ in [try await self.cancelMigration(id).dbusValue] },
        ]
    }

    /// The delays a caller may ask for: at least the 30 s OpenThread's leader enforces for a pending
    /// dataset, at most a day.
    static let migrationDelayRange: ClosedRange<UInt32> = 30...86_400

    /// `Migration`: the structure's running or last migration.
    func migrationRow(_ id: StructureID) async throws -> MigrationRow {
        if let running = runningMigrations[id] { return running }
        let stored: TBRStore.StoredNetworkMigration?
        do { stored = try await store.networkMigration(of: try PersistentStructureStore.recordID(id)) } catch { throw DaemonError.core(error) }
        return stored.flatMap { Self.decodeMigration($0.body) } ?? .none
    }

    // MARK: planning

    /// `Migrate`: plans the move of every router not on the target (the preferred network when `to` is
    /// empty), and unless `dryRun` takes the structure's lock and sends each its pending dataset.
    func migrate(_ id: StructureID, to text: String, delaySeconds: UInt32, dryRun: Bool) async throws -> MigrationRow {
        try Self.checkDelay(delaySeconds)
        let xpan: String
        if text.isEmpty {
            guard let preferred = try await structures.settings(of: id).defaultThreadNetworkId?.description else {
                throw DaemonError.invalid("the structure has no preferred network; name one with --to XPANID or 'tbrctl network preferred'")
            }
            xpan = preferred
        } else {
            xpan = try Self.extendedPANID(text)
        }
        let routers = try await planningRouters(id)
        let (target, source) = try await targetDataset(id, xpan, routers: routers)
        let plan = MigrationPlanner.plan(
            kind: .merge, target: target, routers: routers, delaySeconds: delaySeconds, now: clock.wallTime(), detail: source)
        return dryRun ? plan : try await start(id, plan, target)
    }

    /// `SetChannel`: the structure's network (the preferred one, else the one its routers are on) moves
    /// to `channel`, or with 0 to the quietest channel by its routers' energy scans.
    func setChannel(_ id: StructureID, _ channel: UInt16, delaySeconds: UInt32, dryRun: Bool) async throws -> MigrationRow {
        try Self.checkDelay(delaySeconds)
        let routers = try await planningRouters(id)
        let preferred = try await structures.settings(of: id).defaultThreadNetworkId?.description
        let networks = Set(routers.compactMap { $0.network?.extendedPANID?.description })
        guard let xpan = preferred ?? (networks.count == 1 ? networks.first : nil) else {
            throw DaemonError.invalid(
                networks.isEmpty
                    ? "no router of the structure is on a network"
                    : "the structure's routers are on \(networks.count) networks and none is preferred; merge them first ('tbrctl structure migrate') or choose one with 'tbrctl network preferred'")
        }
        let (network, source) = try await targetDataset(id, xpan, routers: routers)
        let onIt = routers.filter { $0.online && $0.network?.extendedPANID?.description == xpan }
        var supported: [(router: String, mask: UInt32?)] = []
        for r in onIt { supported.append((r.id, try? await service.supportedChannelMask(of: DeviceID(rawValue: r.id)!))) }
        var chosen = channel
        var detail = source
        if channel == 0 {
            var scans: [[(channel: UInt16, maxRSSI: Int)]] = []
            for r in onIt {
                guard let scan = try? await service.energyScan(of: DeviceID(rawValue: r.id)!, duration: .milliseconds(200)) else { continue }
                scans.append(scan.map { (UInt16($0.channel), Int($0.maxRSSI)) })
            }
            guard !scans.isEmpty else {
                throw CoreError(.notSupported, "no router of the structure on \(xpan) can run an energy scan (REST agents have none); name a channel")
            }
            guard let quiet = MigrationPlanner.quietest(scans, allowed: { MigrationPlanner.channelProblem($0, network: network, supported: supported) == nil })
            else { throw DaemonError.invalid("no channel is allowed by the network's channel mask and every router's radio") }
            chosen = quiet.channel
            detail += "; --auto chose channel \(quiet.channel) (strongest energy \(quiet.energy) dBm over \(scans.count) scan\(scans.count == 1 ? "" : "s"))"
        } else if let problem = MigrationPlanner.channelProblem(channel, network: network, supported: supported) {
            throw DaemonError.invalid(problem)
        }
        let target = chosen == network.channel?.number ? network : MigrationPlanner.onChannel(network, chosen)
        let plan = MigrationPlanner.plan(
            kind: .channel, target: target, routers: routers, delaySeconds: delaySeconds, now: clock.wallTime(), detail: detail)
        return dryRun || !plan.steps.contains(where: { $0.action == .move }) ? plan : try await start(id, plan, target)
    }

    private static func checkDelay(_ seconds: UInt32) throws {
        guard migrationDelayRange.contains(seconds) else {
            throw DaemonError.invalid(
                "the delay is \(migrationDelayRange.lowerBound) to \(migrationDelayRange.upperBound) s (OpenThread's leader raises a shorter pending delay to 30 s)")
        }
    }

    /// Each router of the structure: online or not, and its active dataset.
    private func planningRouters(_ id: StructureID) async throws -> [MigrationPlanner.Router] {
        guard let info = try await structures.structure(id: id) else { throw DaemonError.missing("there is no structure \(id)") }
        let summaries = await service.routerSummaries()
        var routers: [MigrationPlanner.Router] = []
        for router in info.deviceIDs {
            let summary = summaries.first { $0.id == router }
            let online = summary?.isOnline == true
            var network: OperationalDataset?
            if online, let tlvs = try? await service.datasetTLVs(of: router, pending: false) { network = try? OperationalDataset(bytes: tlvs) }
            routers.append(.init(id: router.rawValue, transport: summary?.transport.rawValue ?? "dbus", online: online, network: network))
        }
        return routers
    }

    /// The target's complete dataset: a router of the structure on it, when its Active Timestamp is not
    /// older than the directory's copy; else the directory's. Refused when tbrd holds no credentials.
    private func targetDataset(_ id: StructureID, _ xpan: String, routers: [MigrationPlanner.Router]) async throws
        -> (OperationalDataset, String)
    {
        let recordID = try PersistentStructureStore.recordID(id)
        let stored: ThreadNetworkRecord?
        do { stored = try await store.networks(inStructure: recordID).first { $0.extendedPANID == xpan } } catch { throw DaemonError.core(error) }
        let live = routers.first { $0.online && $0.network?.extendedPANID?.description == xpan && $0.network?.isValid(as: .active) == true }
        let directory = stored?.dataset.flatMap { try? OperationalDataset(bytes: $0) }
        if let live, let network = live.network, (directory?.activeTimestamp ?? Timestamp(rawValue: 0)) <= (network.activeTimestamp ?? Timestamp(rawValue: 0)) {
            return (network, "the target's dataset from \(live.id), which is on it")
        }
        guard let directory else {
            throw CoreError(
                .failed,
                "tbrd holds no credentials for \(xpan)\(stored.map { " (\(Quoted($0.networkName)))" } ?? ""); "
                    + "fetch them with 'tbrctl network fetch --key KEY --structure NAME' from a border router on it, or add them with 'tbrctl network add'")
        }
        return (directory, "the target's dataset from the network directory (\(stored?.source.rawValue ?? "")\(stored?.sourceDetail.isEmpty == false ? ": \(stored!.sourceDetail)" : ""))")
    }

    // MARK: running

    /// Takes the lock, sends every moving router its pending dataset, records what each agent did, and
    /// hands the migration to the watcher.
    private func start(_ id: StructureID, _ plan: MigrationRow, _ target: OperationalDataset) async throws -> MigrationRow {
        let recordID = try PersistentStructureStore.recordID(id)
        var row = plan
        row.state = .pending
        row.startedAt = clock.wallTime()
        let refused: String?
        do { refused = try await store.beginNetworkMigration(Self.encodeMigration(row), in: recordID) } catch { throw DaemonError.core(error) }
        if let refused {
            let running = Self.decodeMigration(refused)
            let left = max(0, Int(((running?.dueAt ?? 0) - clock.wallTime()).rounded(.up)))
            throw CoreError(
                .busy,
                "a \(running?.kind == .channel ? "channel change" : "migration") of the structure is pending "
                    + "(to \(running?.targetExtPanId ?? "?") on channel \(running?.targetChannel ?? 0), \(left) s left); "
                    + "wait for it, or cancel it with 'tbrctl structure migrate NAME --cancel'")
        }
        runningMigrations[id] = row
        let tlvs = target.encoded()
        for i in row.steps.indices where row.steps[i].action == .move {
            let router = DeviceID(rawValue: row.steps[i].router)!
            let requested = Duration.milliseconds(Int64(row.steps[i].delayMs))
            do {
                let given = try await service.sendPendingDataset(tlvs, to: router, delay: requested)
                let ms = given.wholeMilliseconds ?? 0
                row.steps[i].delayMs = ms
                row.steps[i].dueAt = clock.wallTime() + Double(ms) / 1000
                if let pending = try? await service.datasetTLVs(of: router, pending: true).flatMap({ try? OperationalDataset(bytes: $0) }) {
                    row.steps[i].pendingTimestamp = pending.pendingTimestamp?.seconds ?? row.steps[i].pendingTimestamp
                }
                row.steps[i].outcome = .pending
            } catch {
                row.steps[i].outcome = .failed
                row.steps[i].detail = "not sent: \(DaemonError.core(error).message); the router stays on \(row.steps[i].fromExtPanId)"
            }
        }
        row.dueAt = row.steps.map(\.dueAt).max() ?? 0
        logger.notice(
            "a structure's migration started",
            [("structure", id.rawValue), ("kind", row.kind.rawValue), ("target", row.targetExtPanId), ("channel", "\(row.targetChannel)")])
        row = await record(id, row)
        if row.state == .pending { migrationStarts.continuation.yield(id) }
        return row
    }

    /// Stores `row`, settles it when no step is pending any more (releasing the lock), and signals it.
    /// - Returns: the row as stored.
    @discardableResult
    func record(_ id: StructureID, _ row: MigrationRow) async -> MigrationRow {
        var row = row
        if row.state == .pending, !row.steps.contains(where: { $0.outcome == .pending }) {
            let outcomes = Set(row.steps.map(\.outcome))
            row.state = outcomes.contains(.failed) ? .failed : outcomes.contains(.cancelled) ? .cancelled : .done
            logger.notice("a structure's migration ended", [("structure", id.rawValue), ("state", row.state.rawValue)])
        }
        runningMigrations[id] = row.state == .pending ? row : nil
        if row.state != .pending { settledMigrations[id] = row }
        do {
            try await store.updateNetworkMigration(
                Self.encodeMigration(row), running: row.state == .pending, in: try PersistentStructureStore.recordID(id))
        } catch {
            logger.error("a structure's migration could not be stored", [("structure", id.rawValue), ("error", "\(error)")])
        }
        emitStructureChanged(id, [.migration: row.dbusValue])
        return row
    }

    /// Settles router `router`'s step of the migration that started at `startedAt`, if that migration is
    /// still the structure's running one and the step is still pending. A watch outlives the migration it
    /// was started for (a cancelled channel change's watch sleeps on to its deadline): without the
    /// `startedAt` check it judged the migration started after it, with the wrong pending dataset.
    func resolve(_ id: StructureID, startedAt: Double, router: String, outcome: MigrationOutcome, detail: String) async {
        guard var row = runningMigrations[id], row.startedAt == startedAt,
            let i = row.steps.firstIndex(where: { $0.router == router && $0.outcome == .pending })
        else {
            logger.debug("a migration's watch ended without a verdict: its migration is over", [("structure", id.rawValue), ("router", router)])
            return
        }
        row.steps[i].outcome = outcome
        row.steps[i].detail = detail
        await record(id, row)
    }

    /// Whether the migration that started at `startedAt` is still the structure's running one.
    func isRunning(_ id: StructureID, startedAt: Double) -> Bool { runningMigrations[id]?.startedAt == startedAt }

    /// Watches every running migration: the ones found in the store at start (tbrd restarted during a
    /// delay), then each one started. Runs until tbrd stops.
    func followMigrations() async {
        do {
            for stored in try await store.runningNetworkMigrations() {
                guard let row = Self.decodeMigration(stored.body) else { continue }
                let id = StructureID(String(stored.structure.rawValue))
                runningMigrations[id] = row
                logger.notice("a structure's migration picked up again after a restart", [("structure", id.rawValue)])
                migrationStarts.continuation.yield(id)
            }
        } catch {
            logger.error("the running migrations could not be read", [("error", "\(error)")])
        }
        await withDiscardingTaskGroup { group in
            for await id in migrationStarts.stream {
                group.addTask { await self.watch(id) }
            }
        }
    }

    /// Follows each pending router of structure `id`'s migration until it shows the target (`moved`), or
    /// until its delay and the grace time have passed (then judged by ``verdict(_:_:)``).
    private func watch(_ id: StructureID) async {
        guard let row = runningMigrations[id] else { return }
        let target = (row.targetExtPanId, row.targetChannel), startedAt = row.startedAt
        await withDiscardingTaskGroup { group in
            for step in row.steps where step.outcome == .pending {
                guard let router = DeviceID(rawValue: step.router) else { continue }
                group.addTask {
                    let deadline = self.clock.now().advanced(by: .seconds(max(0, step.dueAt - self.clock.wallTime()) + MigrationPlanner.graceSeconds))
                    // A router's stream ends when its entry is replaced (an agent restart, tbrd restoring
                    // it): follow the new one. Only the deadline says "not moved".
                    let moved = try? await TimeLimit.run(until: deadline, clock: self.clock) {
                        var replaced = false
                        while !Task.isCancelled, let updates = await self.networkUpdates(of: router, afterEnd: replaced) {
                            for await info in updates where info?.extendedPanId.description == target.0 && info?.channel.number == target.1 {
                                return true
                            }
                            replaced = true
                        }
                        try await self.clock.sleep(until: deadline)
                        return false
                    }
                    // tbrd stopping cancels the watch: the step stays pending in the store, for the next start.
                    guard !Task.isCancelled else { return }
                    if case .finished(true)? = moved {
                        await self.resolve(
                            id, startedAt: startedAt, router: step.router, outcome: .moved, detail: "attached to \(target.0) on channel \(target.1)")
                    } else if await self.isRunning(id, startedAt: startedAt) {
                        let (outcome, detail) = await self.verdict(router, step)
                        await self.resolve(id, startedAt: startedAt, router: step.router, outcome: outcome, detail: detail)
                        // Judged failed, it may still move (it was offline, its agent's timer ran late):
                        // followed until it does, or until another migration of the structure starts.
                        await self.followLate(id, startedAt: startedAt, router: router, target: target)
                    } else {
                        self.logger.debug(
                            "a migration's watch ended without a verdict: its migration is over", [("structure", id.rawValue), ("router", step.router)])
                    }
                }
            }
        }
    }

    /// Follows router `router` after its step was judged `failed`: when it shows the target, the step
    /// becomes `moved` (``movedLate(_:startedAt:router:detail:)``). Ends there, when another migration of
    /// the structure has started, or when tbrd stops.
    private func followLate(_ id: StructureID, startedAt: Double, router: DeviceID, target: (String, UInt16)) async {
        var replaced = false
        while !Task.isCancelled, let updates = await networkUpdates(of: router, afterEnd: replaced) {
            for await info in updates {
                if let running = runningMigrations[id], running.startedAt != startedAt { return }
                if info?.extendedPanId.description == target.0, info?.channel.number == target.1 {
                    await movedLate(id, startedAt: startedAt, router: router.rawValue, detail: "attached to \(target.0) on channel \(target.1)")
                    return
                }
            }
            replaced = true
        }
    }

    /// Router `router`'s step of the migration that started at `startedAt`, judged `failed`, is `moved`
    /// after all: in the running migration, or in the structure's last one if it has ended (its state
    /// then follows: `done` once no step failed). Nothing when another migration has started since.
    func movedLate(_ id: StructureID, startedAt: Double, router: String, detail: String) async {
        let late = detail + " (after its deadline)"
        if let running = runningMigrations[id] {
            guard running.startedAt == startedAt else { return }
            var row = running
            guard let i = row.steps.firstIndex(where: { $0.router == router && $0.outcome == .failed }) else { return }
            row.steps[i].outcome = .moved
            row.steps[i].detail = late
            await record(id, row)
            return
        }
        guard var row = settledMigrations[id], row.startedAt == startedAt,
            let i = row.steps.firstIndex(where: { $0.router == router && $0.outcome == .failed })
        else { return }
        row.steps[i].outcome = .moved
        row.steps[i].detail = late
        if row.state == .failed, !row.steps.contains(where: { $0.outcome == .failed }) {
            row.state = row.steps.contains(where: { $0.outcome == .cancelled }) ? .cancelled : .done
        }
        settledMigrations[id] = row
        logger.notice("a router of a structure's migration moved after its deadline", [("structure", id.rawValue), ("router", router)])
        do {
            try await store.updateNetworkMigration(Self.encodeMigration(row), running: false, in: try PersistentStructureStore.recordID(id))
        } catch {
            logger.error("a structure's migration could not be stored", [("structure", id.rawValue), ("error", "\(error)")])
        }
        emitStructureChanged(id, [.migration: row.dbusValue])
    }

    /// Router `router`'s network changes; after a restart of tbrd the router may not be known yet, so this
    /// waits for it to be added (nil when the service stops first).
    /// With `afterEnd` (its last stream ended) it waits for the router to be added or come online again.
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

    /// A router that did not show the target by its deadline: read where it is now, and say it
    /// (``MigrationPlanner/verdict(_:online:active:pending:)``).
    private func verdict(_ router: DeviceID, _ step: MigrationStepRow) async -> (MigrationOutcome, String) {
        let online = (try? await summary(router))?.isOnline == true
        let active = online ? (try? await service.datasetTLVs(of: router, pending: false)).flatMap { $0.flatMap { try? OperationalDataset(bytes: $0) } } : nil
        let pending = online ? (try? await service.datasetTLVs(of: router, pending: true)).flatMap { $0.flatMap { try? OperationalDataset(bytes: $0) } } : nil
        return MigrationPlanner.verdict(step, online: online, active: active, pending: pending)
    }

    // MARK: cancelling

    /// `CancelMigration`: each pending router gets what MeshCoP allows before the delay ends. The current
    /// network again with an Active Timestamp newer than the pending one's: over REST a newer pending
    /// dataset (it replaces tbrd's); over D-Bus an active set of the current network, which stops a
    /// channel change (same key: at expiry the older pending dataset is dropped) but not a move to
    /// another network key (that takes effect whatever the timestamps: OpenThread's HandleDelayTimer).
    ///
    /// Each router's outcome is decided across awaits, so it is written into the row as it is then,
    /// never into a copy taken before: a step a watch settled meanwhile (`moved`) keeps its outcome.
    func cancelMigration(_ id: StructureID) async throws -> MigrationRow {
        guard let row = runningMigrations[id] else {
            throw DaemonError.missing("no migration or channel change of the structure is pending")
        }
        let startedAt = row.startedAt
        var decided: [String: (outcome: MigrationOutcome?, detail: String)] = [:]
        for step in row.steps where step.outcome == .pending {
            guard let router = DeviceID(rawValue: step.router),
                let tlvs = try? await service.datasetTLVs(of: router, pending: false), var current = try? OperationalDataset(bytes: tlvs)
            else {
                decided[step.router] = (nil, "not cancelled: its active dataset cannot be read; the move stays pending")
                continue
            }
            let keyChanges = current.extendedPANID?.description != row.targetExtPanId
            if step.transport == "dbus" && keyChanges {
                decided[step.router] = (
                    nil,
                    "cannot be cancelled over D-Bus: a pending dataset with another network key takes effect whatever the "
                        + "timestamps, and AttachAllNodesTo cannot send one that keeps the current network; the move stays pending"
                )
                continue
            }
            current.activeTimestamp = Timestamp(seconds: max(current.activeTimestamp?.seconds ?? 0, step.activeTimestamp) + 1)
            do {
                _ = try await service.sendPendingDataset(current.encoded(), to: router, delay: .seconds(30))
                decided[step.router] = (.cancelled, "stays on \(step.fromExtPanId) channel \(step.fromChannel)")
            } catch {
                decided[step.router] = (nil, "not cancelled: \(DaemonError.core(error).message); the move stays pending")
            }
        }
        // The row as it is now: only steps still pending take the cancel's outcome.
        guard var now = runningMigrations[id], now.startedAt == startedAt else { return try await migrationRow(id) }
        for i in now.steps.indices where now.steps[i].outcome == .pending {
            guard let (outcome, detail) = decided[now.steps[i].router] else { continue }
            if let outcome { now.steps[i].outcome = outcome }
            now.steps[i].detail = detail
        }
        return await record(id, now)
    }

    // MARK: the record

    static func encodeMigration(_ row: MigrationRow) -> String {
        (try? JSONEncoder().encode(row)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decodeMigration(_ body: String) -> MigrationRow? {
        try? JSONDecoder().decode(MigrationRow.self, from: Data(body.utf8))
    }
}
