import BorderRouterService
import DBus
import DeviceModel
import MeshCoP
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRFoundation

// io.tbrd.BorderRouter1: one object per router at /io/tbrd/router/<id>.

extension DaemonRuntime {
    typealias RouterProperty = TBRDBusAPI.BorderRouter.Property

    static func routerPath(_ id: DeviceID) -> ObjectPath { TBRDBusAPI.routerPath(id.rawValue) }

    /// Follows routers appearing and going: exports each once, records it in the store, and signals
    /// `Online` changes. A router that goes is kept (offline), never forgotten.
    func followRegistry() async {
        for await event in service.registryEvents() {
            switch event {
            case .added(let id):
                await exportRouter(id)
                await recordRouter(id)
            case .online(let id):
                await infoCache.invalidate(id)
                await recordRouter(id)
            case .offline(let id):
                await infoCache.invalidate(id)
                guard let router = RouterID(rawValue: id.rawValue) else { continue }
                do { try await store.markRouterOffline(router) } catch {
                    logger.error("could not record a router as offline", [("router", id.rawValue), ("error", "\(error)")])
                }
            }
        }
    }

    /// Signals `PropertiesChanged` for each router's summary (Online, Role, BorderAgentId, EpskcActive)
    /// as it changes, one child task per router.
    func followSummaries() async {
        let service = self.service
        await withDiscardingTaskGroup { group in
            for await id in newRouters.stream {
                guard let updates = await service.summaryUpdates(of: id) else { continue }
                group.addTask {
                    var last: BorderRouterSummary?
                    for await summary in updates {
                        var changed: [RouterProperty: DBusValue] = [:]
                        if summary.isOnline != last?.isOnline { changed[.online] = .bool(summary.isOnline) }
                        if summary.role != last?.role { changed[.role] = .string(summary.role?.wireName ?? "") }
                        if summary.borderAgentID != last?.borderAgentID {
                            changed[.borderAgentId] = .string(summary.borderAgentID.map { Hex.encode($0.bytes) } ?? "")
                        }
                        if summary.epskcSessionOpen != last?.epskcSessionOpen {
                            changed[.epskcActive] = .bool(summary.epskcSessionOpen)
                        }
                        // The first value is the state at export time, which readers get with Get.
                        if last != nil, !changed.isEmpty { await self.emitRouterChanged(id, changed) }
                        last = summary
                    }
                }
            }
        }
    }

    func exportRouter(_ id: DeviceID) async {
        guard !exportedRouters.contains(id) else { return }
        exportedRouters.insert(id)
        await connection.export([routerInterface(id)], at: Self.routerPath(id))
        newRouters.continuation.yield(id)
        if isPublished {
            emit(TBRDBusAPI.Manager.borderRouterAdded, [.objectPath(Self.routerPath(id)), .string(id.rawValue)])
        }
    }

    private func recordRouter(_ id: DeviceID) async {
        guard let router = RouterID(rawValue: id.rawValue) else { return }
        let summary = await service.routerSummaries().first { $0.id == id }
        do {
            _ = try await store.recordRouter(
                router, interfaceName: summary?.interfaceName.rawValue ?? id.rawValue,
                borderAgentID: summary?.borderAgentID.map { Hex.encode($0.bytes) })
        } catch {
            logger.error("could not record a router", [("router", id.rawValue), ("error", "\(error)")])
        }
    }

    func emitRouterChanged(_ id: DeviceID, _ changed: [RouterProperty: DBusValue]) {
        guard exportedRouters.contains(id) else { return }
        let pairs = changed.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.name, $0.value) }
        do {
            try connection.emitPropertiesChanged(path: Self.routerPath(id), interface: TBRDBusAPI.BorderRouter.interface, changed: pairs)
        } catch {
            logger.warning("could not signal a router's property change", [("router", id.rawValue), ("error", "\(error)")])
        }
    }

    /// Emits a signal of the manager object.
    func emit(_ signal: SignalContract, _ arguments: [DBusValue]) {
        do {
            try connection.emit(path: TBRDBusAPI.managerPath, interface: TBRDBusAPI.Manager.interface, member: signal.name, arguments: arguments)
        } catch {
            logger.warning("could not emit a signal", [("signal", signal.name.rawValue), ("error", "\(error)")])
        }
    }

    /// The backend of router `id`, or `io.tbrd.Error.NotFound`.
    func backend(_ id: DeviceID) async throws -> any BorderRouterBackend {
        try await service.borderRouter(id, refreshing: false)
    }

    nonisolated func routerInterface(_ id: DeviceID) -> Interface {
        typealias API = TBRDBusAPI.BorderRouter
        return Interface(
            API.interface,
            methods: [
                method(API.activateEpskcMode) { [self] call in
                    try await self.activateEpskc(id, seconds: try call.argument(0)).arguments
                },
                method(API.deactivateEpskcMode) { [self] call in
                    let retain: Bool = try call.argument(0)
                    try await self.backend(id).deactivateEpskcMode(retainActiveSession: retain)
                    return []
                },
                method(API.joinNetwork) { [self] call in
                    try await self.joinNetwork(id, tlvs: try call.argument(0), options: try call.argument(1)).arguments
                },
                method(API.leaveNetwork) { [self] _ in
                    do { try await self.backend(id).leaveNetwork() } catch {
                        await self.infoCache.invalidate(id)
                        throw error
                    }
                    await self.infoCache.invalidate(id)
                    return []
                },
                method(API.getActiveDataset) { [self] _ in [.bytes(try await self.dataset(id, pending: false))] },
                method(API.getPendingDataset) { [self] _ in [.bytes(try await self.dataset(id, pending: true))] },
            ],
            properties: RouterProperty.allCases.map { p in property(p, get: { [self] in try await self.value(of: p, router: id) }) },
            signals: [API.epskcModeActivated.declaration, API.epskcModeDeactivated.declaration])
    }

    /// The value of property `p` of router `id`.
    func value(of p: RouterProperty, router id: DeviceID) async throws -> DBusValue {
        switch p {
        case .id, .interface: return .string(id.rawValue)
        case .online: return .bool(try await summary(id).isOnline)
        case .borderAgentId: return .string(try await summary(id).borderAgentID.map { Hex.encode($0.bytes) } ?? "")
        case .role: return .string(try await summary(id).role?.wireName ?? "")
        case .epskcActive: return .bool(try await summary(id).epskcSessionOpen)
        case .networkName: return .string(try await networkInfo(id)?.networkName ?? "")
        case .panId: return .uint16(try await networkInfo(id)?.panId.rawValue ?? 0xFFFF)
        case .extPanId: return .string(try await networkInfo(id)?.extendedPanId.description ?? "")
        case .channel: return .uint16(try await networkInfo(id)?.channel.number ?? 0)
        case .epskcSupported: return .bool(try await capabilities(id).epskcSupported)
        case .internetAccessCapability: return .string(try await capabilities(id).internetAccessOption.rawValue)
        case .vendorName: return .string(try await basicInformation(id).vendorName)
        case .productName: return .string(try await basicInformation(id).productName)
        case .softwareVersion: return .string(try await basicInformation(id).softwareVersion)
        case .vendorId: return .uint16(try await basicInformation(id).vendorID ?? 0)
        case .productId: return .uint16(try await basicInformation(id).productID ?? 0)
        case .structure: return .string(try await structures.structure(containing: id)?.name ?? "")
        }
    }

    // MARK: handlers

    func summary(_ id: DeviceID) async throws -> BorderRouterSummary {
        guard let summary = await service.routerSummaries().first(where: { $0.id == id }) else {
            throw DaemonError.missing("there is no border router \(id)")
        }
        return summary
    }

    func networkInfo(_ id: DeviceID) async throws -> ThreadNetworkManagementTrait.NetworkInfo? {
        let router = try await backend(id)
        guard router.isOnline else { return nil }
        return try await infoCache.networkInfo(id) { try await router.networkInfo() }
    }

    private func capabilities(_ id: DeviceID) async throws -> ThreadNetworkCapabilitiesTrait.Attributes {
        let router = try await backend(id)
        return try await infoCache.capabilities(id) { try await router.capabilities() }
    }

    private func basicInformation(_ id: DeviceID) async throws -> BasicInformationTrait.Attributes {
        let router = try await backend(id)
        return try await infoCache.basicInformation(id) { try await router.basicInformation() }
    }

    private func activateEpskc(_ id: DeviceID, seconds: UInt16) async throws -> ActivateEpskcReply {
        let router = try await backend(id)
        let request = ThreadNetworkManagementTrait.ActivateEpskcModeRequest(
            requestedDurationSeconds: seconds == 0 ? nil : Int(seconds))
        // A bad argument is an error with its sentence (docs/dbus-api.md); statuses say how the router answered.
        _ = try request.validatedDurationSeconds()
        let response = await router.activateEpskcMode(request)
        // The key goes to this caller only; it is never logged or stored.
        return ActivateEpskcReply(
            status: response.status.rawValue, epskc: response.epskc?.digits ?? "",
            validSeconds: UInt16(clamping: response.validDurationSeconds))
    }

    private func joinNetwork(_ id: DeviceID, tlvs: [UInt8], options: [String: DBusValue]) async throws -> JoinNetworkReply {
        let router = try await backend(id)
        let thisRouterOnly = TBRDBusAPI.BorderRouter.thisRouterOnlyOption
        var scope = ThreadNetworkManagementTrait.JoinScope.wholeNetwork
        if let only = options[thisRouterOnly] {
            guard case .bool(let b) = only else { throw DaemonError.invalid("the option \(thisRouterOnly) must be a boolean") }
            if b { scope = .thisRouterOnly }
        }
        for key in options.keys where key != thisRouterOnly {
            throw DaemonError.invalid("unknown JoinNetwork option \(Quoted(key)) (known: \(thisRouterOnly))")
        }
        let response = await router.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: scope))
        await infoCache.invalidate(id)
        if response.status == .invalidArgument {
            throw DaemonError.invalid(response.message ?? "the dataset is not valid")
        }
        let delay = response.migrationDelay.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? 0
        return JoinNetworkReply(status: response.status.rawValue, delayMs: delay, message: response.message ?? "")
    }

    private func dataset(_ id: DeviceID, pending: Bool) async throws -> [UInt8] {
        let summary = try await summary(id)
        guard summary.isOnline else {
            throw DBusError(DaemonError.unavailable, "the otbr-agent of \(id) is not running")
        }
        let agent = BorderRouterAgent(connection: connection, interfaceName: summary.interfaceName)
        do {
            let tlvs = try await agent.read(pending ? .pendingDatasetTLVs : .activeDatasetTLVs)
            guard !tlvs.isEmpty else { throw DaemonError.missing("\(id) has no \(pending ? "pending" : "active") dataset") }
            return tlvs
        } catch let error as AgentError {
            if case .openThread(.notFound) = error.cause {
                throw DaemonError.missing("\(id) has no \(pending ? "pending" : "active") dataset")
            }
            throw DaemonError.from(HomeError(.unavailable, error.description))
        }
    }
}
