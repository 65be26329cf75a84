import TBRCoreServices
import BorderRouterService
import DBus
import FoundationEssentials
import MeshCoP
import OpenThreadBR
import Store
import TBRDBusAPI
import TBRFoundation
import TBRCore

// io.tbrd.BorderRouter1: one object per router at /io/tbrd/router/<id>.

extension DBusAdapter {
    typealias RouterProperty = TBRDBusAPI.BorderRouter.Property

    static func routerPath(_ id: DeviceID) -> ObjectPath { TBRDBusAPI.routerPath(id.rawValue) }

    /// Follows routers appearing and going: exports each once (after the core has recorded it: a router
    /// a client has seen is one a restart lists). `Online` changes are signalled by ``followSummaries()``.
    /// A router that goes is kept (offline), never forgotten.
    func followRegistry() async {
        for await event in service.registryEvents() {
            await routers.registryChanged(event)
            if case .added(let id) = event { await exportRouter(id) }
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
                        if last.map(CoreRouters.role(of:)) != CoreRouters.role(of: summary) { changed[.role] = .string(CoreRouters.role(of: summary)) }
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

    /// Takes router `id`'s object off the bus (an admin removed it) and signals `BorderRouterRemoved`.
    func unexportRouter(_ id: DeviceID) async {
        guard exportedRouters.remove(id) != nil else { return }
        await connection.unexport(Self.routerPath(id))
        if isPublished {
            emit(TBRDBusAPI.Manager.borderRouterRemoved, [.objectPath(Self.routerPath(id)), .string(id.rawValue)])
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

    nonisolated func routerInterface(_ id: DeviceID) -> Interface {
        typealias API = TBRDBusAPI.BorderRouter
        return Interface(
            API.interface,
            methods: [
                method(API.activateEpskcMode) { [self] call in
                    let response = try await self.routers.startEpskc(id, seconds: try call.argument(0))
                    return ActivateEpskcReply(
                        status: OperationStatus(response.status), epskc: response.epskc?.digits ?? "",
                        validSeconds: UInt16(clamping: response.validDurationSeconds)
                    ).arguments
                },
                method(API.deactivateEpskcMode) { [self] call in
                    let retain: Bool = try call.argument(0)
                    try await self.routers.requireOnline(id).deactivateEpskcMode(retainActiveSession: retain)
                    return []
                },
                method(API.joinNetwork) { [self] call in
                    try await self.joinNetwork(id, tlvs: try call.argument(0), options: try call.argument(1)).arguments
                },
                method(API.leaveNetwork) { [self] _ in
                    try await self.routers.leaveNetwork(id)
                    return []
                },
                method(API.getActiveDataset) { [self] _ in [.bytes(try await self.routers.dataset(id, pending: false))] },
                method(API.getPendingDataset) { [self] _ in [.bytes(try await self.routers.dataset(id, pending: true))] },
                method(API.getMeshTopology) { [self] _ in MeshTopologyReply(try await self.routers.meshView(id).topology).arguments },
                method(API.energyScan) { [self] call in
                    [Self.energyScanValue(try await self.routers.energyScan(id, milliseconds: try call.argument(0)))]
                },
            ],
            properties: RouterProperty.allCases.map { p in property(p, get: { [self] in try await self.value(of: p, router: id) }) },
            signals: [API.epskcModeActivated.declaration, API.epskcModeDeactivated.declaration])
    }

    /// The value of property `p` of router `id`.
    func value(of p: RouterProperty, router id: DeviceID) async throws -> DBusValue {
        switch p {
        case .id: return .string(id.rawValue)
        case .interface: return .string(try await routers.summary(id).interfaceName?.rawValue ?? "")
        case .transport: return .string(try await routers.summary(id).transport.rawValue)
        case .address: return .string(try await routers.summary(id).address)
        case .online: return .bool(try await routers.summary(id).isOnline)
        case .borderAgentId: return .string(try await routers.summary(id).borderAgentID.map { Hex.encode($0.bytes) } ?? "")
        case .role: return .string(CoreRouters.role(of: try await routers.summary(id)))
        case .epskcActive: return .bool(try await routers.summary(id).epskcSessionOpen)
        case .networkName: return .string(try await routers.networkInfo(id)?.networkName ?? "")
        case .panId: return .uint16(try await routers.networkInfo(id)?.panId.rawValue ?? 0xFFFF)
        case .extPanId: return .string(try await routers.networkInfo(id)?.extendedPanId.description ?? "")
        case .channel: return .uint16(try await routers.networkInfo(id)?.channel.number ?? 0)
        case .epskcSupported: return .bool(try await routers.capabilities(id).epskcSupported)
        case .internetAccessCapability: return .string(try await routers.capabilities(id).internetAccessOption.rawValue)
        case .vendorName: return .string(try await routers.basicInformation(id).vendorName)
        case .productName: return .string(try await routers.basicInformation(id).productName)
        case .softwareVersion: return .string(try await routers.basicInformation(id).softwareVersion)
        case .vendorId: return .uint16(try await routers.basicInformation(id).vendorID ?? 0)
        case .productId: return .uint16(try await routers.basicInformation(id).productID ?? 0)
        case .structure: return .string(try await structures.structure(containing: id)?.name ?? "")
        }
    }
}
