package import BorderRouterService
import FoundationEssentials
import MeshCoP
package import OpenThreadBR
package import Store
import TBRCore
import TBRDocuments
package import TBRFoundation

/// The core's routers and their ePSKc (TBRCore's ``TBRCore/RouterCore``) and what every other part asks
/// of one router: its summary, its readings through the cache (the last known ones while it is offline),
/// ePSKc, join, leave, its datasets and its mesh. It owns the cache of what each router last reported.
/// Every error is the core's (``CoreGate/serving(_:)`` makes any other one a CoreError).
package actor CoreRouters {
    package let service: BorderRouterService
    package let store: TBRStore
    package let logger: Logger
    /// Router properties read from the agents, served for up to a second; the last ones while offline.
    package let infoCache: RouterInfoCache
    /// Routers tbrd itself made leave their network and that have not joined one since: recovery leaves
    /// them alone (``RouterRecovery``).
    private var left: Set<DeviceID> = []

    package init(service: BorderRouterService, store: TBRStore, logger: Logger) {
        self.service = service
        self.store = store
        self.logger = logger
        self.infoCache = RouterInfoCache { [store, logger] id, snapshot in
            await Self.persist(snapshot, of: id, in: store, logger: logger)
        }
    }

    /// The router `text` names (id, interface name or Border Agent ID), or NotFound listing the known ones.
    package func resolve(_ text: String) async throws -> DeviceID {
        if let id = await service.resolveRouter(text) { return id }
        let known = await service.deviceIDs().map(\.rawValue)
        throw ServiceError.missing(
            "there is no border router \(Quoted(text))" + (known.isEmpty ? " (tbrd knows none)" : " (known: \(known.joined(separator: ", ")))"))
    }

    /// The backend of router `id`, or `io.tbrd.Error.NotFound`.
    package func backend(_ id: DeviceID) async throws -> any BorderRouterBackend {
        try await service.borderRouter(id, refreshing: false)
    }

    /// What every router's listing shows, read once for both adapters' lists (`ListBorderRouters`, `GET /routers`).
    package struct RouterOverview: Sendable {
        package var summary: BorderRouterSummary
        package var network: ThreadNetworkManagementTrait.NetworkInfo?
        package var epskcSupported: Bool
    }

    /// Every router's summary, network and ePSKc support, from the same sources as its own properties:
    /// one answer per value.
    package func routerOverviews() async -> [RouterOverview] {
        var overviews: [RouterOverview] = []
        for summary in await service.routerSummaries() {
            let network = try? await networkInfo(summary.id)
            let epskc = (try? await capabilities(summary.id))?.epskcSupported ?? false
            overviews.append(RouterOverview(summary: summary, network: network ?? nil, epskcSupported: epskc))
        }
        return overviews
    }

    /// The role tbrd reports: the agent's while it is online, "" while it is not (never a stale one).
    package static func role(of summary: BorderRouterSummary) -> String {
        summary.isOnline ? summary.role?.wireName ?? "" : ""
    }

    package func summary(_ id: DeviceID) async throws -> BorderRouterSummary {
        guard let summary = await service.routerSummaries().first(where: { $0.id == id }) else {
            throw ServiceError.missing("there is no border router \(id)")
        }
        return summary
    }

    // What otbr-agent reports, read through the cache. While a router is offline (or its agent stops
    // answering) the values it last reported are served, so that a GetAll never fails for it; a router
    // never seen online has the explicit empty values. One source per value: ListBorderRouters reads
    // through the same functions.

    package func networkInfo(_ id: DeviceID) async throws -> ThreadNetworkManagementTrait.NetworkInfo? {
        let router = try await backend(id)
        guard router.isOnline else { return await infoCache.snapshot(id).network }
        do {
            return try await infoCache.networkInfo(id) { try await router.networkInfo() }
        } catch let error as HomeError where error.code == .unavailable {
            return await infoCache.snapshot(id).network
        }
    }

    package func capabilities(_ id: DeviceID) async throws -> ThreadNetworkCapabilitiesTrait.Attributes {
        let router = try await backend(id)
        let known = { await self.infoCache.snapshot(id).capabilities ?? .init(epskcSupported: false, internetAccessOption: .unspecified) }
        guard router.isOnline else { return await known() }
        do {
            return try await infoCache.capabilities(id) { try await router.capabilities() }
        } catch let error as HomeError where error.code == .unavailable {
            return await known()
        }
    }

    package func basicInformation(_ id: DeviceID) async throws -> BasicInformationTrait.Attributes {
        let router = try await backend(id)
        let known = { await self.infoCache.snapshot(id).basicInformation ?? .unknown }
        guard router.isOnline else { return await known() }
        do {
            return try await infoCache.basicInformation(id) { try await router.basicInformation() }
        } catch let error as HomeError where error.code == .unavailable {
            return await known()
        }
    }

    /// Stores what `id` last reported, so that it is served while the router is offline, after restarts too.
    package static func persist(_ snapshot: RouterSnapshot, of id: DeviceID, in store: TBRStore, logger: Logger) async {
        do {
            try await store.setLastKnown(Array(try JSONEncoder().encode(snapshot)), of: id)
        } catch {
            logger.warning("could not store what a router last reported", [("router", id.rawValue), ("error", "\(error)")])
        }
    }

    /// Fails with `Unavailable` when the agent of `id` is not on the bus: the same answer for every
    /// operation that needs it.
    package func requireOnline(_ id: DeviceID) async throws -> any BorderRouterBackend {
        let router = try await backend(id)
        guard router.isOnline else { throw CoreError(.unavailable, "the otbr-agent of \(id) is not running") }
        return router
    }

    /// Starts an ePSKc on router `id` for `seconds` (0: the agent's default). The key goes to this caller only;
    /// it is never logged or stored.
    package func startEpskc(_ id: DeviceID, seconds: UInt16) async throws -> ThreadNetworkManagementTrait.ActivateEpskcModeResponse {
        let request = ThreadNetworkManagementTrait.ActivateEpskcModeRequest(
            requestedDurationSeconds: seconds == 0 ? nil : Int(seconds))
        // A bad argument is an error with its sentence (docs/dbus-api.md); statuses say how the router answered.
        _ = try request.validatedDurationSeconds()
        let router = try await requireOnline(id)
        let response = await router.activateEpskcMode(request)
        // A failure with its reason is an error carrying the sentence (docs/dbus-api.md).
        if response.status == .failed { throw CoreError(.failed, response.message ?? "ActivateEpskcMode on \(id) failed") }
        return response
    }

    /// Router `id` joins the network of Active dataset `tlvs`: alone, or with its whole mesh (through a
    /// Pending dataset, the agent's delay before the move in the answer): the trait's response, which
    /// each adapter maps (`JoinNetworkReply` on D-Bus, `JoinResult` in the core).
    package func joinNetwork(_ id: DeviceID, tlvs: [UInt8], scope: ThreadNetworkManagementTrait.JoinScope) async throws
        -> ThreadNetworkManagementTrait.JoinNetworkResponse
    {
        let router = try await requireOnline(id)
        left.remove(id)
        let response = await router.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: scope))
        await infoCache.invalidate(id)
        if response.status == .invalidArgument {
            throw ServiceError.invalid(response.message ?? "the dataset is not valid")
        }
        return response
    }

    /// Router `id` leaves its network.
    package func leaveNetwork(_ id: DeviceID) async throws {
        left.insert(id)
        do { try await requireOnline(id).leaveNetwork() } catch {
            await infoCache.invalidate(id)
            throw error
        }
        await infoCache.invalidate(id)
    }

    /// Whether tbrd made router `id` leave its network and it has joined none through tbrd since.
    package func leftOnPurpose(_ id: DeviceID) -> Bool { left.contains(id) }

    /// The Active (or Pending) dataset of router `id`, as TLVs.
    package func dataset(_ id: DeviceID, pending: Bool) async throws -> [UInt8] {
        let summary = try await summary(id)
        guard summary.isOnline else {
            throw CoreError(.unavailable, "the otbr-agent of \(id) is not answering")
        }
        guard let tlvs = try await service.datasetTLVs(of: id, pending: pending) else {
            throw ServiceError.missing("\(id) has no \(pending ? "pending" : "active") dataset")
        }
        return tlvs
    }

    /// The agent's energy scan of router `id`, `milliseconds` per channel.
    package func energyScan(_ id: DeviceID, milliseconds: UInt32) async throws -> [EnergyScanResult] {
        guard (1...Self.energyScanLimitMs).contains(milliseconds) else {
            throw ServiceError.invalid("the scan duration is 1 to \(Self.energyScanLimitMs) ms per channel (otbr-agent takes less than 65535)")
        }
        _ = try await requireOnline(id)
        return try await service.energyScan(of: id, duration: .milliseconds(Int64(milliseconds)))
    }

    /// The longest scan per channel otbr-agent takes.
    package static let energyScanLimitMs: UInt32 = 65_534

    /// The ePSKc journal's entries after `sequence` (of router `router` only, when given), at most `limit`.
    package func epskcJournalEntries(since sequence: Int64, router: DeviceID?, limit: Int) async throws -> [EpskcJournalEntry] {
        try await store.epskcEvents(since: sequence, router: router, limit: limit)
    }

    /// Keeps the store's record of the routers as the registry changes: a router seen (added or online)
    /// is recorded with its interface and Border Agent ID, one gone is marked offline; what it reported
    /// is read again when it comes or goes. Removed routers are forgotten by ``CoreStructures``.
    package func registryChanged(_ event: RouterRegistryEvent) async {
        switch event {
        case .added(let id):
            await record(id)
        case .online(let id):
            await infoCache.invalidate(id)
            await record(id)
        case .offline(let id):
            await infoCache.invalidate(id)
            do { try await store.markRouterOffline(id) } catch StoreError.routerNotFound {
                // removed meanwhile
            } catch {
                logger.error("could not record a router as offline", [("router", id.rawValue), ("error", "\(error)")])
            }
        case .removed:
            break
        }
    }

    private func record(_ id: DeviceID) async {
        let summary = await service.routerSummaries().first { $0.id == id }
        do {
            _ = try await store.recordRouter(
                id, interfaceName: summary.map { $0.interfaceName?.rawValue } ?? id.rawValue,
                borderAgentID: summary?.borderAgentID.map { Hex.encode($0.bytes) })
        } catch {
            logger.error("could not record a router", [("router", id.rawValue), ("error", "\(error)")])
        }
    }
}
