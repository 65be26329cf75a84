package import BorderRouterService
import FoundationEssentials
import MeshCoP
import NetworkMigration
import Store
import TBRCore
package import TBRDocuments
import TBRFoundation

// Planning a migration or channel change, starting it, and cancelling it: the calls behind
// Structure1.Migrate, SetChannel and CancelMigration. MigrationPlanner plans; the machine follows.

extension StructureMigrations {
    /// `Migrate`: plans the move of every router not on the target (the preferred network when `to` is
    /// empty), and unless `dryRun` takes the structure's lock and sends each its pending dataset.
    package func migrate(_ id: StructureID, to text: String, delaySeconds: UInt32, dryRun: Bool) async throws -> Migration {
        try Self.checkDelay(delaySeconds)
        let xpan: String
        if text.isEmpty {
            guard let preferred = try await structures.settings(of: id).defaultThreadNetworkId?.description else {
                throw ServiceError.invalid("the structure has no preferred network; name one with --to XPANID or 'tbrctl network preferred'")
            }
            xpan = preferred
        } else {
            xpan = try CoreStructures.extendedPANID(text)
        }
        let routers = try await planningRouters(id)
        let (target, source) = try await targetDataset(id, xpan, routers: routers)
        let plan = MigrationPlanner.plan(
            kind: .merge, target: target, routers: routers, delaySeconds: delaySeconds, now: clock.wallTime(), detail: source)
        return dryRun ? plan : try await start(id, plan, target)
    }

    /// `SetChannel`: the structure's network (the preferred one, else the one its routers are on) moves
    /// to `channel`, or with 0 to the quietest channel by its routers' energy scans.
    package func setChannel(_ id: StructureID, _ channel: UInt16, delaySeconds: UInt32, dryRun: Bool) async throws -> Migration {
        try Self.checkDelay(delaySeconds)
        let routers = try await planningRouters(id)
        let preferred = try await structures.settings(of: id).defaultThreadNetworkId?.description
        let networks = Set(routers.compactMap { $0.network?.extendedPANID?.description })
        guard let xpan = preferred ?? (networks.count == 1 ? networks.first : nil) else {
            throw ServiceError.invalid(
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
            else { throw ServiceError.invalid("no channel is allowed by the network's channel mask and every router's radio") }
            chosen = quiet.channel
            detail += "; --auto chose channel \(quiet.channel) (strongest energy \(quiet.energy) dBm over \(scans.count) scan\(scans.count == 1 ? "" : "s"))"
        } else if let problem = MigrationPlanner.channelProblem(channel, network: network, supported: supported) {
            throw ServiceError.invalid(problem)
        }
        let target = chosen == network.channel?.number ? network : MigrationPlanner.onChannel(network, chosen)
        let plan = MigrationPlanner.plan(
            kind: .channel, target: target, routers: routers, delaySeconds: delaySeconds, now: clock.wallTime(), detail: detail)
        return dryRun || !plan.steps.contains(where: { $0.action == .move }) ? plan : try await start(id, plan, target)
    }

    private static func checkDelay(_ seconds: UInt32) throws {
        guard delayRange.contains(seconds) else {
            throw ServiceError.invalid(
                "the delay is \(delayRange.lowerBound) to \(delayRange.upperBound) s (OpenThread's leader raises a shorter pending delay to 30 s)")
        }
    }

    /// Each router of the structure: online or not, and its active dataset.
    private func planningRouters(_ id: StructureID) async throws -> [MigrationPlanner.Router] {
        guard let info = try await structures.structure(id: id) else { throw ServiceError.missing("there is no structure \(id)") }
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
        do { stored = try await store.networks(inStructure: recordID).first { $0.extendedPANID == xpan } } catch { throw ServiceError.core(error) }
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

    // MARK: starting and cancelling

    /// Takes the structure's lock with `plan` and hands it to the machine, which sends every moving router
    /// `target` as its pending dataset. Returns the migration once every send has answered.
    private func start(_ id: StructureID, _ plan: Migration, _ target: OperationalDataset) async throws -> Migration {
        let recordID = try PersistentStructureStore.recordID(id)
        let now = clock.wallTime()
        var locked = plan
        locked.state = .pending
        locked.startedAt = now
        let refused: String?
        do { refused = try await store.beginNetworkMigration(Self.encode(locked), in: recordID) } catch { throw ServiceError.core(error) }
        if let refused {
            let running = Self.decode(refused)
            let left = max(0, Int(((running?.dueAt ?? 0) - now).rounded(.up)))
            throw CoreError(
                .busy,
                "a \(running?.kind == .channel ? "channel change" : "migration") of the structure is pending "
                    + "(to \(running?.targetExtPanId ?? "?") on channel \(running?.targetChannel ?? 0), \(left) s left); "
                    + "wait for it, or cancel it with 'tbrctl structure migrate NAME --cancel'")
        }
        logger.notice(
            "a structure's migration started",
            [("structure", id.rawValue), ("kind", plan.kind.rawValue), ("target", plan.targetExtPanId), ("channel", "\(plan.targetChannel)")])
        await perform(id) { $0.start(plan, target: target, now: now) }
        return try await migration(of: id)
    }

    /// `CancelMigration`: each pending router gets what MeshCoP allows before its delay ends
    /// (``NetworkMigration/MigrationMachine/cancelRead(router:active:now:)``). Returns the migration
    /// once every router's cancel has answered.
    package func cancel(_ id: StructureID) async throws -> Migration {
        var reads: [MigrationDirective]?
        await perform(id) { machine in
            reads = machine.cancelRequested()
            return reads ?? []
        }
        guard reads != nil else { throw ServiceError.missing("no migration or channel change of the structure is pending") }
        return try await migration(of: id)
    }
}
