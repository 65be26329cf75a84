import BorderRouterService
import DBus
import FoundationEssentials
import MeshCoP
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRFoundation
import TBRCore

// What a router's D-Bus members and the HTTP adapter ask of one router: its readings, ePSKc, join,
// leave and its datasets (DaemonRuntime+Routers.swift exports the routers and follows the registry).

extension DaemonRuntime {
    // MARK: handlers

    /// The role tbrd reports: the agent's while it is online, "" while it is not (never a stale one).
    nonisolated static func role(of summary: BorderRouterSummary) -> String {
        summary.isOnline ? summary.role?.wireName ?? "" : ""
    }

    func summary(_ id: DeviceID) async throws -> BorderRouterSummary {
        guard let summary = await service.routerSummaries().first(where: { $0.id == id }) else {
            throw DaemonError.missing("there is no border router \(id)")
        }
        return summary
    }

    // What otbr-agent reports, read through the cache. While a router is offline (or its agent stops
    // answering) the values it last reported are served, so that a GetAll never fails for it; a router
    // never seen online has the explicit empty values. One source per value: ListBorderRouters reads
    // through the same functions.

    func networkInfo(_ id: DeviceID) async throws -> ThreadNetworkManagementTrait.NetworkInfo? {
        let router = try await backend(id)
        guard router.isOnline else { return await infoCache.snapshot(id).network }
        do {
            return try await infoCache.networkInfo(id) { try await router.networkInfo() }
        } catch let error as HomeError where error.code == .unavailable {
            return await infoCache.snapshot(id).network
        }
    }

    func capabilities(_ id: DeviceID) async throws -> ThreadNetworkCapabilitiesTrait.Attributes {
        let router = try await backend(id)
        let known = { await self.infoCache.snapshot(id).capabilities ?? .init(epskcSupported: false, internetAccessOption: .unspecified) }
        guard router.isOnline else { return await known() }
        do {
            return try await infoCache.capabilities(id) { try await router.capabilities() }
        } catch let error as HomeError where error.code == .unavailable {
            return await known()
        }
    }

    func basicInformation(_ id: DeviceID) async throws -> BasicInformationTrait.Attributes {
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
    nonisolated static func persist(_ snapshot: RouterSnapshot, of id: DeviceID, in store: TBRStore, logger: Logger) async {
        do {
            try await store.setLastKnown(Array(try JSONEncoder().encode(snapshot)), of: id)
        } catch {
            logger.warning("could not store what a router last reported", [("router", id.rawValue), ("error", "\(error)")])
        }
    }

    /// Fails with `Unavailable` when the agent of `id` is not on the bus: the same answer for every
    /// operation that needs it.
    func requireOnline(_ id: DeviceID) async throws -> any BorderRouterBackend {
        let router = try await backend(id)
        guard router.isOnline else { throw CoreError(.unavailable, "the otbr-agent of \(id) is not running") }
        return router
    }

    /// Starts an ePSKc on router `id` for `seconds` (0: the agent's default). The key goes to this caller only;
    /// it is never logged or stored.
    func startEpskc(_ id: DeviceID, seconds: UInt16) async throws -> ThreadNetworkManagementTrait.ActivateEpskcModeResponse {
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

    /// `JoinNetwork`'s options read (the D-Bus adapter), then ``joinNetwork(_:tlvs:scope:)``.
    func joinNetwork(_ id: DeviceID, tlvs: [UInt8], options: [String: DBusValue]) async throws -> JoinNetworkReply {
        let thisRouterOnly = TBRDBusAPI.BorderRouter.thisRouterOnlyOption
        var scope = ThreadNetworkManagementTrait.JoinScope.wholeNetwork
        if let only = options[thisRouterOnly] {
            guard case .bool(let b) = only else { throw DaemonError.invalid("the option \(thisRouterOnly) must be a boolean") }
            if b { scope = .thisRouterOnly }
        }
        for key in options.keys where key != thisRouterOnly {
            throw DaemonError.invalid("unknown JoinNetwork option \(Quoted(key)) (known: \(thisRouterOnly))")
        }
        let response = try await joinNetwork(id, tlvs: tlvs, scope: scope)
        let delay = response.migrationDelay.map { $0.milliseconds() } ?? 0
        return JoinNetworkReply(status: OperationStatus(response.status), delayMs: delay, message: response.message ?? "")
    }

    /// Router `id` joins the network of Active dataset `tlvs`: alone, or with its whole mesh (through a
    /// Pending dataset, the agent's delay before the move in the answer): the trait's response, which
    /// each adapter maps (`JoinNetworkReply` on D-Bus, `JoinResult` in the core).
    func joinNetwork(_ id: DeviceID, tlvs: [UInt8], scope: ThreadNetworkManagementTrait.JoinScope) async throws
        -> ThreadNetworkManagementTrait.JoinNetworkResponse
    {
        let router = try await requireOnline(id)
        let response = await router.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: scope))
        await infoCache.invalidate(id)
        if response.status == .invalidArgument {
            throw DaemonError.invalid(response.message ?? "the dataset is not valid")
        }
        return response
    }

    /// Router `id` leaves its network.
    func leaveNetwork(_ id: DeviceID) async throws {
        do { try await requireOnline(id).leaveNetwork() } catch {
            await infoCache.invalidate(id)
            throw error
        }
        await infoCache.invalidate(id)
    }

    /// The Active (or Pending) dataset of router `id`, as TLVs.
    func dataset(_ id: DeviceID, pending: Bool) async throws -> [UInt8] {
        let summary = try await summary(id)
        guard summary.isOnline else {
            throw CoreError(.unavailable, "the otbr-agent of \(id) is not answering")
        }
        guard let tlvs = try await service.datasetTLVs(of: id, pending: pending) else {
            throw DaemonError.missing("\(id) has no \(pending ? "pending" : "active") dataset")
        }
        return tlvs
    }
}
