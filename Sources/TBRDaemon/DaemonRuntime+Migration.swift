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
}
