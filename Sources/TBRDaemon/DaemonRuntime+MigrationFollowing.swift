import DBus
import DeviceModel
import FoundationEssentials
import MeshCoP
import Store
import TBRDBusAPI
import TBRFoundation
import TBRCore

// Following a running migration (DaemonRuntime+Migration.swift starts it): each router's step is
// settled when it shows the target or when its deadline passes, the record is kept and signalled, and a
// router judged failed is followed until it moves after all.

extension DaemonRuntime {
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
            logger.debug("a migration's step was settled already", [("structure", id.rawValue), ("router", router)])
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
}
