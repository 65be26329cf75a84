package import BorderRouterService
package import Store
package import TBRCore
import TBRDocuments
package import TBRFoundation

/// What happens, as the core tells every adapter (TBRCore's ``TBRCore/CoreEvent``): ePSKc starts and
/// ends with their journal sequence, routers coming online or going, added, removed or read anew,
/// structures changed, a structure's policy statuses recorded anew, each commissioning stage. Each subscriber has its own bounded stream
/// (``events(bufferLimit:)``); with none, no event is built. The adapters' own signals (D-Bus's) follow
/// the service's streams themselves; nothing here knows an adapter.
package actor CoreEvents {
    let service: BorderRouterService
    let structures: CoreStructures
    /// The structures' changes, subscribed before anything runs.
    let structureChanges: EventStream<StructureChange>
    /// What recovery reports, subscribed before anything runs.
    let recoveryReports: EventStream<RecoveryReport>
    /// What the health monitor opens and closes, subscribed before anything runs.
    let problemChanges: EventStream<ProblemChange>
    /// The routers whose reading changed, subscribed before anything runs.
    let readings: EventStream<DeviceID>
    nonisolated let broadcaster = EventBroadcaster<CoreEvent>()

    package init(
        service: BorderRouterService, structures: CoreStructures, structureStore: PersistentStructureStore, recovery: RouterRecovery,
        health: HealthMonitor
    ) {
        self.service = service
        self.structures = structures
        self.structureChanges = structureStore.changes(bufferLimit: 4096)
        self.recoveryReports = recovery.reports.subscribe(bufferLimit: 1024) { $0 }
        self.problemChanges = health.changes.subscribe(bufferLimit: 1024) { $0 }
        self.readings = health.readings.subscribe(bufferLimit: 4096) { $0 }
    }

    /// What happens from now on, through a stream holding at most `bufferLimit` events not yet taken.
    package nonisolated func events(bufferLimit: Int) -> EventStream<CoreEvent> { broadcaster.subscribe(bufferLimit: bufferLimit) { $0 } }

    /// Turns what the service reports into events until tbrd stops.
    package func run() async {
        let service = self.service
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in service.epskcEvents(bufferLimit: 1024) { self.publish(event) }
            }
            group.addTask {
                for await event in service.registryEvents() {
                    switch event {
                    case .online(let id): self.broadcaster.publish(.router(id: id.rawValue, online: true))
                    case .offline(let id): self.broadcaster.publish(.router(id: id.rawValue, online: false))
                    case .added(let id), .removed(let id): self.broadcaster.publish(.routerChanged(id: id.rawValue))
                    }
                }
            }
            group.addTask {
                for await progress in service.commissioningProgress(bufferLimit: 4096) { await self.publish(progress) }
            }
            let recoveryReports = self.recoveryReports
            group.addTask {
                for await report in recoveryReports { self.broadcaster.publish(.recovery(report)) }
            }
            let problemChanges = self.problemChanges
            group.addTask {
                for await change in problemChanges { self.broadcaster.publish(.problem(change)) }
            }
            let readings = self.readings
            group.addTask {
                for await id in readings { self.broadcaster.publish(.routerChanged(id: id.rawValue)) }
            }
            for await change in structureChanges {
                guard case .policyStatusChanged(let id) = change else {
                    broadcaster.publish(.structuresChanged)
                    continue
                }
                guard broadcaster.subscriberCount > 0 else { continue }
                // The `structure policy --json` document, from the statuses just recorded.
                if let info = try? await structures.info(id), let statuses = try? await structures.policyStatus(id),
                    let view = try? await structures.policyView(of: info, statuses: statuses)
                {
                    broadcaster.publish(.policy(view))
                }
            }
        }
    }

    /// An ePSKc event (the `tbrctl --json epskc watch` shape) with its journal sequence; one without a
    /// sequence was not journalled and is not told.
    private nonisolated func publish(_ event: EpskcEvent) {
        guard broadcaster.subscriberCount > 0, let sequence = event.sequenceNumber, sequence > 0 else { return }
        let document: EpskcWatchEvent
        switch event {
        case .activated(let e):
            document = EpskcWatchEvent(
                event: .epskcModeActivated, sequence: sequence, router: event.deviceID.rawValue, activatedAt: e.activatedAt,
                validSeconds: e.validDurationSeconds)
        case .deactivated(let e):
            document = EpskcWatchEvent(
                event: .epskcModeDeactivated, sequence: sequence, router: event.deviceID.rawValue, reason: e.reason.rawValue,
                detail: e.detail?.rawValue, activatedAt: e.activatedAt, deactivatedAt: e.deactivatedAt)
        }
        broadcaster.publish(.epskc(document))
    }

    /// A commissioning stage (`tbrctl --json matter commission`'s names).
    private func publish(_ progress: CommissioningProgress) async {
        guard broadcaster.subscriberCount > 0 else { return }
        let name = (try? await structures.info(progress.structure).name) ?? progress.structure.rawValue
        broadcaster.publish(
            .commissioning(
                CommissioningReport(
                    structure: name, session: progress.session.rawValue, payloadId: progress.payloadID, stage: progress.stage,
                    time: progress.time.description, nodeId: progress.nodeID?.rawValue, error: progress.error,
                    failedStage: progress.failedStage, name: progress.name, room: progress.room, warning: progress.warning)))
    }
}
