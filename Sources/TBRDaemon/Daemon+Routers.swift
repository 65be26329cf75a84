import BorderRouterService
import DBus
import TBRDBusAPI
import DeviceModel
import MeshCoP
import OpenThreadBR
import Store
import TBRFoundation

// io.tbrd.BorderRouter1: one object per router at /io/tbrd/router/<id>.

extension Daemon {
    static let routerInterfaceName = TBRDBusAPI.borderRouter

    static func routerPath(_ id: DeviceID) -> ObjectPath { routersPath.appending(id.rawValue) }

    /// Follows routers appearing and going: exports each once, records it in the store, and signals
    /// `Online` changes. A router that goes is kept (offline), never forgotten.
    func followRegistry(_ service: BorderRouterService) async {
        for await event in service.registryEvents() {
            switch event {
            case .added(let id):
                await exportRouter(id)
                await recordRouter(id, online: true)
            case .online(let id):
                await infoCache.invalidate(id)
                await recordRouter(id, online: true)
            case .offline(let id):
                await infoCache.invalidate(id)
                if let router = RouterID(rawValue: id.rawValue) { try? await store?.markRouterOffline(router) }
            }
        }
    }

    /// Signals `PropertiesChanged` for each router's summary (Online, Role, BorderAgentId, EpskcActive)
    /// as it changes, one child task per router.
    func followSummaries(_ service: BorderRouterService) async {
        await withDiscardingTaskGroup { group in
            for await id in newRouters.stream {
                guard let updates = await service.summaryUpdates(of: id) else { continue }
                group.addTask {
                    var last: BorderRouterSummary?
                    for await summary in updates {
                        var changed: [String: DBusValue] = [:]
                        if summary.isOnline != last?.isOnline { changed["Online"] = .bool(summary.isOnline) }
                        if summary.role != last?.role { changed["Role"] = .string(summary.role?.wireName ?? "") }
                        if summary.borderAgentID != last?.borderAgentID {
                            changed["BorderAgentId"] = .string(summary.borderAgentID.map { Hex.encode($0.bytes) } ?? "")
                        }
                        if summary.epskcSessionOpen != last?.epskcSessionOpen {
                            changed["EpskcActive"] = .bool(summary.epskcSessionOpen)
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
        guard let connection, !exportedRouters.contains(id) else { return }
        exportedRouters.insert(id)
        await connection.export([routerInterface(id)], at: Self.routerPath(id))
        newRouters.continuation.yield(id)
        if isReady {
            try? connection.emit(path: Self.managerPath, interface: Self.managerInterfaceName, member: "BorderRouterAdded",
                                 arguments: [.objectPath(Self.routerPath(id)), .string(id.rawValue)])
        }
    }

    private func recordRouter(_ id: DeviceID, online: Bool) async {
        guard let store, let service, let router = RouterID(rawValue: id.rawValue) else { return }
        let summary = await service.routerSummaries().first { $0.id == id }
        _ = try? await store.recordRouter(
            router, interfaceName: summary?.interfaceName.rawValue ?? id.rawValue,
            borderAgentID: summary?.borderAgentID.map { Hex.encode($0.bytes) })
    }

    func emitRouterChanged(_ id: DeviceID, _ changed: [String: DBusValue]) {
        guard let connection, exportedRouters.contains(id) else { return }
        let pairs = changed.sorted { $0.key < $1.key }.compactMap { k, v in (try? MemberName(k)).map { ($0, v) } }
        try? connection.emitPropertiesChanged(path: Self.routerPath(id), interface: Self.routerInterfaceName, changed: pairs)
    }

    /// The backend of router `id`, or `io.tbrd.Error.NotFound`.
    func backend(_ id: DeviceID) async throws -> any BorderRouterBackend {
        guard let service else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        do { return try await service.borderRouter(id, refreshing: false) } catch { throw DaemonError.from(error) }
    }

    nonisolated func routerInterface(_ id: DeviceID) -> Interface {
        let s: @Sendable (String) -> DBusValue = { .string($0) }
        return Interface(Self.routerInterfaceName, methods: [
            Method("ActivateEpskcMode", inputs: [Argument("seconds", .uint16)],
                   outputs: [Argument("status", .string), Argument("epskc", .string), Argument("validSeconds", .uint16)]) {
                [self] call in
                let seconds: UInt16 = try call.argument(0)
                return try await self.activateEpskc(id, seconds: seconds)
            },
            Method("DeactivateEpskcMode", inputs: [Argument("retainActiveSession", .boolean)]) { [self] call in
                let retain: Bool = try call.argument(0)
                let router = try await self.backend(id)
                do { try await router.deactivateEpskcMode(retainActiveSession: retain) } catch { throw DaemonError.from(error) }
                return []
            },
            Method("JoinNetwork", inputs: [Argument("tlvs", .array(.byte)), Argument("options", .dictionary(key: .string, value: .variant))],
                   outputs: [Argument("status", .string), Argument("delayMs", .int64), Argument("message", .string)]) { [self] call in
                let tlvs: [UInt8] = try call.argument(0)
                let options: [String: DBusValue] = try call.argument(1)
                return try await self.joinNetwork(id, tlvs: tlvs, options: options)
            },
            Method("LeaveNetwork") { [self] _ in
                let router = try await self.backend(id)
                do { try await router.leaveNetwork() } catch {
                    await self.infoCache.invalidate(id)
                    throw DaemonError.from(error)
                }
                await self.infoCache.invalidate(id)
                return []
            },
            Method("GetActiveDataset", outputs: [Argument("tlvs", .array(.byte))]) { [self] _ in
                [.bytes(try await self.dataset(id, pending: false))]
            },
            Method("GetPendingDataset", outputs: [Argument("tlvs", .array(.byte))]) { [self] _ in
                [.bytes(try await self.dataset(id, pending: true))]
            },
        ], properties: [
            Property("Id", type: .string, emitsChanged: .const, get: { s(id.rawValue) }),
            Property("Interface", type: .string, emitsChanged: .const, get: { s(id.rawValue) }),
            Property("Online", type: .boolean, get: { [self] in .bool(try await self.summary(id).isOnline) }),
            Property("BorderAgentId", type: .string, get: { [self] in
                s(try await self.summary(id).borderAgentID.map { Hex.encode($0.bytes) } ?? "")
            }),
            Property("Role", type: .string, get: { [self] in s(try await self.summary(id).role?.wireName ?? "") }),
            Property("NetworkName", type: .string, emitsChanged: .false, get: { [self] in
                s(try await self.networkInfo(id)?.networkName ?? "")
            }),
            Property("PanId", type: .uint16, emitsChanged: .false, get: { [self] in
                .uint16(try await self.networkInfo(id)?.panId.rawValue ?? 0xFFFF)
            }),
            Property("ExtPanId", type: .string, emitsChanged: .false, get: { [self] in
                s(try await self.networkInfo(id)?.extendedPanId.description ?? "")
            }),
            Property("Channel", type: .uint16, emitsChanged: .false, get: { [self] in
                .uint16(try await self.networkInfo(id)?.channel.number ?? 0)
            }),
            Property("EpskcSupported", type: .boolean, emitsChanged: .false, get: { [self] in
                .bool(try await self.capabilities(id).epskcSupported)
            }),
            Property("InternetAccessCapability", type: .string, emitsChanged: .false, get: { [self] in
                s(try await self.capabilities(id).internetAccessOption.rawValue)
            }),
            Property("VendorName", type: .string, emitsChanged: .false, get: { [self] in s(try await self.basicInformation(id).vendorName) }),
            Property("ProductName", type: .string, emitsChanged: .false, get: { [self] in s(try await self.basicInformation(id).productName) }),
            Property("SoftwareVersion", type: .string, emitsChanged: .false, get: { [self] in
                s(try await self.basicInformation(id).softwareVersion)
            }),
            Property("VendorId", type: .uint16, emitsChanged: .false, get: { [self] in .uint16(try await self.basicInformation(id).vendorID ?? 0) }),
            Property("ProductId", type: .uint16, emitsChanged: .false, get: { [self] in .uint16(try await self.basicInformation(id).productID ?? 0) }),
            Property("Structure", type: .string, emitsChanged: .false, get: { [self] in
                s(try await self.structures?.structure(containing: id)?.name ?? "")
            }),
            Property("EpskcActive", type: .boolean, get: { [self] in .bool(try await self.summary(id).epskcSessionOpen) }),
        ], signals: [
            SignalDeclaration("EpskcModeActivated", arguments: [
                Argument("sequence", .uint64), Argument("router", .string), Argument("validSeconds", .uint16),
                Argument("activatedAt", .int64),
            ]),
            SignalDeclaration("EpskcModeDeactivated", arguments: [
                Argument("sequence", .uint64), Argument("router", .string), Argument("reason", .string),
                Argument("detail", .string), Argument("activatedAt", .int64), Argument("deactivatedAt", .int64),
            ]),
        ])
    }

    // MARK: handlers

    func summary(_ id: DeviceID) async throws -> BorderRouterSummary {
        guard let summary = await service?.routerSummaries().first(where: { $0.id == id }) else {
            throw DaemonError.missing("there is no border router \(id)")
        }
        return summary
    }

    func networkInfo(_ id: DeviceID) async throws -> ThreadNetworkManagementTrait.NetworkInfo? {
        let router = try await backend(id)
        guard router.isOnline else { return nil }
        return try await infoCache.networkInfo(id) {
            do { return try await router.networkInfo() } catch { throw DaemonError.from(error) }
        }
    }

    private func capabilities(_ id: DeviceID) async throws -> ThreadNetworkCapabilitiesTrait.Attributes {
        let router = try await backend(id)
        return try await infoCache.capabilities(id) {
            do { return try await router.capabilities() } catch { throw DaemonError.from(error) }
        }
    }

    private func basicInformation(_ id: DeviceID) async throws -> BasicInformationTrait.Attributes {
        let router = try await backend(id)
        return try await infoCache.basicInformation(id) {
            do { return try await router.basicInformation() } catch { throw DaemonError.from(error) }
        }
    }

    private func activateEpskc(_ id: DeviceID, seconds: UInt16) async throws -> [DBusValue] {
        let router = try await backend(id)
        let request = ThreadNetworkManagementTrait.ActivateEpskcModeRequest(
            requestedDurationSeconds: seconds == 0 ? nil : Int(seconds))
        let response = await router.activateEpskcMode(request)
        // The key goes to this caller only; it is never logged or stored.
        return [
            .string(response.status.rawValue), .string(response.epskc?.digits ?? ""),
            .uint16(UInt16(clamping: response.validDurationSeconds)),
        ]
    }

    private func joinNetwork(_ id: DeviceID, tlvs: [UInt8], options: [String: DBusValue]) async throws -> [DBusValue] {
        let router = try await backend(id)
        var scope = ThreadNetworkManagementTrait.JoinScope.wholeNetwork
        if let only = options["thisRouterOnly"] {
            guard case .bool(let b) = only else { throw DaemonError.invalid("the option thisRouterOnly must be a boolean") }
            if b { scope = .thisRouterOnly }
        }
        for key in options.keys where key != "thisRouterOnly" {
            throw DaemonError.invalid("unknown JoinNetwork option \"\(key)\" (known: thisRouterOnly)")
        }
        let response = await router.joinNetwork(.init(operationalDatasetTlvs: tlvs, scope: scope))
        await infoCache.invalidate(id)
        if response.status == .invalidArgument {
            throw DaemonError.invalid(response.message ?? "the dataset is not valid")
        }
        let delay = response.migrationDelay.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? 0
        return [.string(response.status.rawValue), .int64(delay), .string(response.message ?? "")]
    }

    private func dataset(_ id: DeviceID, pending: Bool) async throws -> [UInt8] {
        guard let connection else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
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
