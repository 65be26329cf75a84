package import BorderRouterService
import MeshCoP
import OpenThreadBR
package import Store
package import TBRCore
import TBRDocuments
package import TBRFoundation

/// Routers of a structure that come back with no network (TBRCore's ``TBRCore/RecoveryCore``, issue 48).
///
/// Observed on the real agent (docs/otbr-sim.md): after `FactoryReset` the agent keeps its bus name and
/// process, `DeviceRole` turns `disabled` and `ActiveDatasetTlvs` answers an error; nothing else is
/// announced. So each router's role is followed: a router that turns `disabled`, or comes online, is
/// checked. A router of a structure whose recovery is not `off`, whose structure has a preferred network
/// with credentials held, and that has no Active dataset is `empty`: with `ask` it is reported (a
/// ``reports`` event; the doctor's `structure-network` check), with `auto` it joins the preferred network
/// at once. One on another network is `diverged`, reported and never moved. Nothing is sent to a router
/// outside a structure, nor to one tbrd itself made leave (``CoreRouters/leave(_:)``).
package actor RouterRecovery {
    package let service: BorderRouterService
    package let routers: CoreRouters
    package let structures: CoreStructures
    package let store: TBRStore
    package let clock: any TBRClock
    package let logger: Logger
    /// Every report, for the adapters (the D-Bus adapter's `RouterEmpty`, the core's `recovery` event).
    package nonisolated let reports = EventBroadcaster<RecoveryReport>()
    /// What the last check of each router found.
    private var latest: [DeviceID: RecoveryReport] = [:]
    /// Routers being checked or joined now (a role change meanwhile is not checked twice).
    private var busy: Set<DeviceID> = []

    package init(service: BorderRouterService, routers: CoreRouters, structures: CoreStructures, store: TBRStore, clock: any TBRClock, logger: Logger) {
        self.service = service
        self.routers = routers
        self.structures = structures
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Follows every router's role until tbrd stops: each router known now, and each one that appears.
    package func run() async {
        await followEveryRouter(of: service) { id in await self.follow(id) }
    }

    /// Checks router `id` each time its role turns `disabled` or it comes online (a new agent instance).
    /// The real agent turns `disabled` when it detaches, just before it erases its dataset, and announces
    /// nothing after: a router found still holding its dataset while `disabled` is checked again each
    /// second, at most ``settleChecks`` times, while it stays so (noticed within 5 s).
    private func follow(_ id: DeviceID) async {
        guard let updates = await service.summaryUpdates(of: id) else { return }
        var last: (online: Bool, role: DeviceRole?, instance: String?)?
        for await summary in updates {
            defer { last = (summary.isOnline, summary.role, summary.agentInstance) }
            guard summary.isOnline else { continue }
            let cameOnline = last.map { !$0.online || $0.instance != summary.agentInstance } ?? true
            let turnedDisabled = summary.role == .disabled && last?.role != .disabled
            guard cameOnline || turnedDisabled else { continue }
            var report = await check(id, joining: false)
            var settle = 0
            while report?.state == .ok, summary.role == .disabled, settle < Self.settleChecks {
                settle += 1
                do { try await clock.sleep(for: .seconds(1)) } catch { return }
                guard let now = try? await routers.summary(id), now.isOnline, now.role == .disabled else { break }
                report = await check(id, joining: false)
            }
        }
    }

    /// How many times a router that turned `disabled` with its dataset is checked again.
    static let settleChecks = 4

    /// Checks router `id` and acts as its structure's recovery says (`joining`: join an empty one whatever
    /// the mode, as `tbrctl structure recover` asks). Nil for a router recovery leaves alone.
    package func check(_ id: DeviceID, joining: Bool) async -> RecoveryReport? {
        guard busy.insert(id).inserted else { return nil }
        defer { busy.remove(id) }
        guard let structure = try? await store.structure(containing: id) else { return nil }
        let mode = structure.settings.recovery
        guard mode != "off" || joining, let preferred = structure.settings.defaultThreadNetworkID else { return nil }
        let held = try? await store.networks(inStructure: structure.id).first { $0.extendedPANID == preferred }
        guard let dataset = held?.dataset else { return nil }
        guard await !routers.leftOnPurpose(id) || joining else { return nil }
        let report: (RecoveryReport.State, String?, String)
        switch await activeNetwork(id) {
        case .unreadable:
            return nil
        case .network(let xpan) where xpan == preferred:
            report = (.ok, nil, "\(id) is on the structure's preferred network")
        case .network(let xpan):
            report = (
                .diverged, xpan,
                "\(id) is on network \(xpan), not on the structure's preferred network \(preferred); tbrd leaves it there (someone may have meant it): "
                    + "tbrctl structure migrate \(Self.shellWord(structure.name)) moves the structure's routers onto one network")
        case .empty where mode == "auto" || joining:
            // The network as the structure's other routers hold it now (a channel change since it was stored).
            let current = try? await structures.currentDataset(preferred, in: PersistentStructureStore.id(structure.id))
            report = await join(id, dataset: (current ?? nil) ?? dataset, structure: structure.name, preferred: preferred)
        case .empty:
            report = (
                .empty, nil,
                "\(id) has no network (reset, reflashed, a new radio, or wiped); its structure's recovery is ask: "
                    + "tbrctl structure recover \(Self.shellWord(structure.name)) \(id) joins it back to \(preferred)")
        }
        let value = RecoveryReport(
            structure: structure.name, router: id.rawValue, state: report.0, recovery: mode, network: preferred, routerNetwork: report.1,
            detail: report.2, time: WallTime(secondsSinceEpoch: clock.wallTime()).description)
        let before = latest.updateValue(value, forKey: id)
        if value.state != .ok || (before.map { $0.state != .ok } ?? false) {
            if before?.state != value.state || value.state == .rejoined || value.state == .failed { reports.publish(value) }
            logger.notice("recovery", [("router", id.rawValue), ("structure", structure.name), ("state", value.state.rawValue)])
        }
        return value
    }

    private enum ActiveNetwork { case network(String), empty, unreadable }

    /// The Extended PAN ID of router `id`'s Active dataset; `.empty` when it has none (the agent answers an
    /// error, or no dataset); `.unreadable` when the router is not online.
    private func activeNetwork(_ id: DeviceID) async -> ActiveNetwork {
        guard let summary = try? await routers.summary(id), summary.isOnline else { return .unreadable }
        let tlvs: [UInt8]?
        do { tlvs = try await service.datasetTLVs(of: id, pending: false) } catch {
            // The real agent answers an error for ActiveDatasetTlvs once its dataset is erased.
            return summary.role == .disabled || summary.role == .detached ? .empty : .unreadable
        }
        guard let tlvs, !tlvs.isEmpty, let xpan = (try? OperationalDataset(bytes: tlvs))?.extendedPANID else { return .empty }
        return .network(xpan.description)
    }

    private func join(_ id: DeviceID, dataset: [UInt8], structure: String, preferred: String) async -> (RecoveryReport.State, String?, String) {
        do {
            let response = try await routers.joinNetwork(id, tlvs: dataset, scope: .thisRouterOnly)
            guard response.status == .success else {
                return (.failed, nil, "\(id) could not join \(preferred): \(response.message ?? "\(response.status)")")
            }
            logger.notice("router joined back to its structure's network", [("router", id.rawValue), ("structure", structure), ("ext_pan_id", preferred)])
            return (.rejoined, nil, "\(id) had no network; tbrd joined it back to \(preferred)")
        } catch {
            return (.failed, nil, "\(id) could not join \(preferred): \(ServiceError.core(error).message)")
        }
    }

    /// `name` as one shell word (quoted when it holds anything but letters, digits, `-`, `_`, `.`).
    package static func shellWord(_ name: String) -> String {
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } ? name
            : "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What the last check of `id` found (nil: never checked, or left alone).
    package func latestReport(_ id: DeviceID) -> RecoveryReport? { latest[id] }
}

extension RouterRecovery: RecoveryCore {
    package func setRecovery(of name: String, mode: String) async throws -> String {
        let info = try await structures.structure(named: name)
        do {
            _ = try await store.setRecovery(mode, of: try PersistentStructureStore.recordID(info.id))
        } catch {
            throw ServiceError.core(error)
        }
        structures.signals.publish(.recoveryChanged(info.id, mode))
        logger.notice("structure recovery set", [("structure", info.name), ("recovery", mode)])
        if mode != "off" { for router in info.deviceIDs { _ = await check(router, joining: false) } }
        return mode
    }

    package func recovery(of name: String) async throws -> String {
        let info = try await structures.structure(named: name)
        guard let record = try await store.structure(id: try PersistentStructureStore.recordID(info.id)) else {
            throw ServiceError.missing("there is no structure named \(Quoted(name))")
        }
        return record.settings.recovery
    }

    package func recover(_ name: String, router: String?) async throws -> [RecoveryReport] {
        let info = try await structures.structure(named: name)
        var ids = info.deviceIDs
        if let router {
            let id = try await routers.resolve(router)
            guard ids.contains(id) else { throw ServiceError.invalid("\(id) is not a router of structure \(Quoted(info.name))") }
            ids = [id]
        }
        guard let record = try await store.structure(id: try PersistentStructureStore.recordID(info.id)),
            let preferred = record.settings.defaultThreadNetworkID
        else {
            throw ServiceError.invalid("structure \(Quoted(info.name)) has no preferred network: choose one with 'tbrctl network preferred'")
        }
        let held = try await store.networks(inStructure: record.id).first { $0.extendedPANID == preferred }?.dataset
        guard held != nil else {
            throw ServiceError.missing("tbrd does not hold the credentials of the preferred network \(preferred): fetch them with 'tbrctl network fetch --structure'")
        }
        var out: [RecoveryReport] = []
        for id in ids.sorted() {
            if let report = await check(id, joining: true) { out.append(report) }
        }
        return out
    }

    package func recoveryReports() async -> [RecoveryReport] {
        latest.values.sorted { ($0.structure, $0.router) < ($1.structure, $1.router) }
    }
}
