import BorderRouterService
import DBus
import TBRDBusAPI
import DeviceModel
import Store

// io.tbrd.Manager1 at /io/tbrd: routers, structures and the ePSKc journal.

extension Daemon {
    static let managerInterfaceName = TBRDBusAPI.manager

    nonisolated func managerInterface() -> Interface {
        Interface(Self.managerInterfaceName, methods: [
            Method("ListBorderRouters", outputs: [Argument("routers", .array(.structure([
                .objectPath, .string, .string, .boolean, .string, .string, .string, .boolean,
            ])))]) { [self] _ in [try await self.listBorderRouters()] },
            Method("FindBorderRouter", inputs: [Argument("router", .string)], outputs: [Argument("path", .objectPath)]) {
                [self] call in [.objectPath(Self.routerPath(try await self.resolve(try call.argument(0))))]
            },
            Method("ListStructures", outputs: [Argument("structures", .array(.structure([.objectPath, .string])))]) { [self] _ in
                let infos = try await self.allStructures()
                return [.array(element: .structure([.objectPath, .string]),
                               infos.map { .structure([.objectPath(Self.structurePath($0.id)), .string($0.name)]) })]
            },
            Method("FindStructure", inputs: [Argument("name", .string)], outputs: [Argument("path", .objectPath)]) { [self] call in
                [.objectPath(Self.structurePath(try await self.structure(named: try call.argument(0)).id))]
            },
            Method("CreateStructure", inputs: [Argument("name", .string)], outputs: [Argument("path", .objectPath)]) { [self] call in
                [.objectPath(try await self.createStructure(try call.argument(0)))]
            },
            Method("DeleteStructure", inputs: [Argument("name", .string)]) { [self] call in
                try await self.deleteStructure(try call.argument(0))
                return []
            },
            Method("AddBorderRouter", inputs: [Argument("structure", .string), Argument("router", .string)]) { [self] call in
                try await self.addBorderRouter(try call.argument(0), try call.argument(1))
                return []
            },
            Method("RemoveBorderRouter", inputs: [Argument("structure", .string), Argument("router", .string)]) { [self] call in
                try await self.removeBorderRouter(try call.argument(0), try call.argument(1))
                return []
            },
            Method("EpskcEvents", inputs: [Argument("since", .uint64), Argument("router", .string), Argument("limit", .uint32)],
                   outputs: [Argument("events", .array(Self.journalEntryType))]) { [self] call in
                [try await self.epskcEvents(since: try call.argument(0), router: try call.argument(1), limit: try call.argument(2))]
            },
        ], signals: [
            SignalDeclaration("BorderRouterAdded", arguments: [Argument("path", .objectPath), Argument("id", .string)]),
            SignalDeclaration("BorderRouterRemoved", arguments: [Argument("path", .objectPath), Argument("id", .string)]),
            SignalDeclaration("StructureAdded", arguments: [Argument("path", .objectPath), Argument("name", .string)]),
            SignalDeclaration("StructureRemoved", arguments: [Argument("path", .objectPath), Argument("name", .string)]),
        ])
    }

    static let journalEntryType: SignatureType = .structure([
        .uint64, .string, .string, .string, .string, .int64, .int64, .uint16,
    ])

    /// The router `text` names (id, interface name or Border Agent ID), or NotFound listing the known ones.
    func resolve(_ text: String) async throws -> DeviceID {
        guard let service else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        if let id = await service.resolveRouter(text) { return id }
        let known = await service.deviceIDs().map(\.rawValue)
        throw DaemonError.missing(
            "there is no border router \"\(text)\"" + (known.isEmpty ? " (tbrd knows none)" : " (known: \(known.joined(separator: ", ")))"))
    }

    private func listBorderRouters() async throws -> DBusValue {
        guard let service else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        var rows: [DBusValue] = []
        for summary in await service.routerSummaries() {
            var name = "", xpan = "", epskc = false
            if let router = try? await service.borderRouter(summary.id, refreshing: false) {
                epskc = router.support.epskc
                if summary.isOnline, let info = try? await networkInfo(summary.id) {
                    name = info.networkName
                    xpan = info.extendedPanId.description
                }
            }
            rows.append(.structure([
                .objectPath(Self.routerPath(summary.id)), .string(summary.id.rawValue), .string(summary.interfaceName.rawValue),
                .bool(summary.isOnline), .string(summary.role?.wireName ?? ""), .string(name), .string(xpan), .bool(epskc),
            ]))
        }
        return .array(element: .structure([.objectPath, .string, .string, .boolean, .string, .string, .string, .boolean]), rows)
    }

    private func epskcEvents(since: UInt64, router: String, limit: UInt32) async throws -> DBusValue {
        guard let store else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        var filter: RouterID?
        if !router.isEmpty {
            let id = try await resolve(router)
            filter = RouterID(rawValue: id.rawValue)
        }
        let entries: [EpskcJournalEntry]
        do {
            entries = try await store.epskcEvents(
                since: Int64(clamping: since), router: filter, limit: limit == 0 ? Int(Int32.max) : Int(limit))
        } catch {
            throw DaemonError.from(error)
        }
        return .array(element: Self.journalEntryType, entries.map { e in
            .structure([
                .uint64(UInt64(e.sequence)), .string(e.router.rawValue), .string(e.kind.rawValue), .string(e.reason ?? ""),
                .string(e.detail ?? ""), .int64(Self.milliseconds(e.activatedAt)), .int64(Self.milliseconds(e.deactivatedAt)),
                .uint16(UInt16(clamping: e.validSeconds ?? 0)),
            ])
        })
    }
}
