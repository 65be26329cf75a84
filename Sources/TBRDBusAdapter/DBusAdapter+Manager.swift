import TBRCoreServices
import BorderRouterService
import DBus
import Store
import TBRDBusAPI
import TBRFoundation

// io.tbrd.Manager1 at /io/tbrd: routers, structures and the ePSKc journal.

extension DBusAdapter {
    nonisolated func managerInterface() -> Interface {
        typealias API = TBRDBusAPI.Manager
        return Interface(
            API.interface,
            methods: [
                method(API.listBorderRouters) { [self] _ in [await self.listBorderRouters().dbusValue] },
                method(API.diagnose) { [self] call in
                    [try await diagnostics.doctorChecks(try call.argument(0)).map { DiagnosticRow(id: $0.id, status: $0.status.rawValue, message: $0.message, fix: $0.fix) }.dbusValue]
                },
                method(API.findBorderRouter) { [self] call in
                    [.objectPath(Self.routerPath(try await self.routers.resolve(try call.argument(0))))]
                },
                method(API.listStructures) { [self] _ in
                    let rows = try await self.structureService.allStructures().map { StructureRow(path: Self.structurePath($0.id), name: $0.name) }
                    return [rows.dbusValue]
                },
                method(API.findStructure) { [self] call in
                    [.objectPath(Self.structurePath(try await self.structureService.structure(named: try call.argument(0)).id))]
                },
                method(API.createStructure) { [self] call in
                    // Exported before the answer, so the caller can use the path at once (the signal follows).
                    let info = try await self.structureService.createStructure(try call.argument(0))
                    await self.exportStructure(info.id)
                    return [.objectPath(Self.structurePath(info.id))]
                },
                method(API.deleteStructure) { [self] call in
                    await self.unexportStructure(try await self.structureService.removeStructure(try call.argument(0)).id)
                    return []
                },
                method(API.addBorderRouter) { [self] call in
                    try await self.structureService.addBorderRouter(try call.argument(0), try call.argument(1))
                    return []
                },
                method(API.removeBorderRouter) { [self] call in
                    try await self.structureService.removeBorderRouter(try call.argument(0), try call.argument(1))
                    return []
                },
                method(API.addRemoteBorderRouter) { [self] call in
                    let id = try await self.structureService.addRemoteBorderRouter(url: try call.argument(0), id: try call.argument(1))
                    await self.exportRouter(id)
                    return [.objectPath(Self.routerPath(id))]
                },
                method(API.removeRemoteBorderRouter) { [self] call in
                    await self.unexportRouter(try await self.structureService.removeRemoteBorderRouter(try call.argument(0)))
                    return []
                },
                method(API.epskcEvents) { [self] call in
                    [try await self.epskcEvents(since: try call.argument(0), router: try call.argument(1), limit: try call.argument(2)).dbusValue]
                },
                method(API.fetchNetworkCredentials) { [self] call in
                    let (tlvs, source) = try await self.structureService.fetchNetworkCredentials(
                        key: try call.argument(0), from: try call.argument(1), structure: try call.argument(2),
                        timeoutSeconds: try call.argument(3))
                    return [tlvs.dbusValue, source.dictionary.dbusValue]
                },
                method(API.unclaimedMatterNodes) { [self] _ in [try await self.unclaimedMatterNodes().dbusValue] },
            ] + apiMethods() + backupMethods() + healthMethods(),
            signals: [API.borderRouterAdded, API.borderRouterRemoved, API.structureAdded, API.structureRemoved, API.problemOpened, API.problemClosed].map(\.declaration))
    }

    private func listBorderRouters() async -> [BorderRouterRow] {
        await routers.routerOverviews().map { o in
            BorderRouterRow(
                path: Self.routerPath(o.summary.id), id: o.summary.id.rawValue, interface: o.summary.interfaceName?.rawValue ?? "",
                online: o.summary.isOnline, role: CoreRouters.role(of: o.summary), networkName: o.network?.networkName ?? "",
                extPanId: o.network?.extendedPanId.description ?? "", epskcSupported: o.epskcSupported)
        }
    }

    func epskcEvents(since: UInt64, router: String, limit: UInt32) async throws -> [EpskcJournalRow] {
        var filter: DeviceID?
        if !router.isEmpty {
            filter = try await routers.resolve(router)
        }
        let entries = try await routers.epskcJournalEntries(
            since: Int64(clamping: since), router: filter, limit: limit == 0 ? Int(Int32.max) : Int(limit))
        return entries.map { e in
            EpskcJournalRow(
                sequence: UInt64(e.sequence), router: e.router.rawValue, kind: e.kind.rawValue, reason: e.reason ?? "",
                detail: e.detail ?? "", activatedAt: Self.milliseconds(e.activatedAt),
                deactivatedAt: Self.milliseconds(e.deactivatedAt), validSeconds: UInt16(clamping: e.validSeconds ?? 0))
        }
    }
}
