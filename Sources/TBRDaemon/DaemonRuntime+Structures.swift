import BorderRouterService
import DBus
import MeshCoP
import TBRDBusAPI
import TBRDocuments
import TBRCore
import TBRFoundation

// io.tbrd.Structure1 at /io/tbrd/structure/<id>, and the Manager1 calls that change structures.

extension DaemonRuntime {
    typealias StructureProperty = TBRDBusAPI.Structure.Property

    static func structurePath(_ id: StructureID) -> ObjectPath { TBRDBusAPI.structurePath(id.rawValue) }

    /// The D-Bus spelling of a structure's internet-access option (docs/dbus-api.md).
    static func busName(_ option: ThreadNetworkSettingsTrait.InternetAccessOption) -> String {
        switch option {
        case .internetAccessOptionUnspecified: "unspecified"
        case .internetAccessOptionNone: "none"
        case .internetAccessOptionAll: "all"
        case .internetAccessOptionNat64Only: "nat64Only"
        case .internetAccessOptionDhcpv6PdOnly: "dhcpv6PdOnly"
        }
    }

    static func option(busName: String) -> ThreadNetworkSettingsTrait.InternetAccessOption? {
        ThreadNetworkSettingsTrait.InternetAccessOption.allCases.first { Self.busName($0) == busName }
    }

    func exportStructure(_ id: StructureID) async {
        guard !exportedStructures.contains(id) else { return }
        exportedStructures.insert(id)
        await connection.export([structureInterface(id)], at: Self.structurePath(id))
    }

    func allStructures() async throws -> [StructureInfo] { try await structures.structures() }

    func structure(named name: String) async throws -> StructureInfo {
        guard let found = try await structures.structure(named: name) else {
            throw DaemonError.missing("there is no structure named \(Quoted(name))")
        }
        return found
    }

    func createStructure(_ name: String) async throws -> ObjectPath {
        let info = try await structures.createStructure(name: name)
        await exportStructure(info.id)
        let path = Self.structurePath(info.id)
        emit(TBRDBusAPI.Manager.structureAdded, [.objectPath(path), .string(info.name)])
        logger.info("structure created", [("structure", info.name)])
        return path
    }

    /// Deletes the structure; its routers become unassigned, and each signals its `Structure` as `""`.
    func deleteStructure(_ name: String) async throws {
        let info = try await structure(named: name)
        try await structures.deleteStructure(info.id)
        let path = Self.structurePath(info.id)
        await connection.unexport(path)
        exportedStructures.remove(info.id)
        emit(TBRDBusAPI.Manager.structureRemoved, [.objectPath(path), .string(info.name)])
        for router in info.deviceIDs { emitRouterChanged(router, [.structure: .string("")]) }
        logger.info("structure deleted", [("structure", info.name)])
    }

    func addBorderRouter(_ structureName: String, _ router: String) async throws {
        let info = try await structure(named: structureName)
        let id = try await routers.resolve(router)
        try await structures.addDevice(id, to: info.id)
        await service.policySettled()
        emitStructureChanged(info.id, [.borderRouters: try await routerPaths(info.id)])
        emitRouterChanged(id, [.structure: .string(info.name)])
    }

    func removeBorderRouter(_ structureName: String, _ router: String) async throws {
        let info = try await structure(named: structureName)
        let id = try await routers.resolve(router)
        try await structures.removeDevice(id, from: info.id)
        await service.policySettled()
        emitStructureChanged(info.id, [.borderRouters: try await routerPaths(info.id)])
        emitRouterChanged(id, [.structure: .string("")])
    }

    func info(_ id: StructureID) async throws -> StructureInfo {
        guard let found = try await structures.structure(id: id) else {
            throw DaemonError.missing("there is no structure with the id \(id)")
        }
        return found
    }

    private func routerPaths(_ id: StructureID) async throws -> DBusValue {
        try await info(id).deviceIDs.map { Self.routerPath($0) }.dbusValue
    }

    func update(
        _ id: StructureID, reapplying: Bool = false, _ change: @escaping @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) async throws {
        let updated = try await structures.updateSettings(of: id, change)
        // The policy status read after this call is about the option just written; setting the option
        // (even to the one it had) applies it again on every router of the structure.
        if reapplying { await service.policyReapplied(id) } else { await service.policySettled() }
        // PreferredNetwork is DefaultThreadNetworkId under the network directory's name: one setting.
        let preferred = DBusValue.string(updated.defaultThreadNetworkId?.description ?? "")
        emitStructureChanged(id, [
            .internetAccessOption: .string(Self.busName(updated.internetAccessOption)),
            .defaultThreadNetworkId: preferred, .preferredNetwork: preferred,
        ])
    }

    /// Each router's internet-access status in structure `id`, sorted by router.
    func policyStatus(_ id: StructureID) async throws -> [PolicyRouterView] {
        try await structures.policyStatus(of: id).map {
            PolicyRouterView(id: $0.deviceID.rawValue, state: $0.state, detail: $0.detail)
        }.sorted { $0.id < $1.id }
    }

    /// `Structure1.PolicyStatus`: the same statuses as D-Bus rows.
    static func policyRows(_ statuses: [PolicyRouterView]) -> DBusValue {
        statuses.map { PolicyStatusRow(router: $0.id, state: $0.state, detail: $0.detail) }.dbusValue
    }

    /// Signals `PolicyStatus` each time the reconciler has recorded a structure's statuses anew.
    func followPolicyStatus() async {
        for await change in structureChanges {
            guard case .policyStatusChanged(let id) = change else { continue }
            do {
                let statuses = try await policyStatus(id)
                emitStructureChanged(id, [.policyStatus: Self.policyRows(statuses)])
                // The adapters' `policy` event: the `structure policy --json` document, from the same statuses.
                if coreEvents.subscriberCount > 0, let view = try? await policyView(of: try await info(id), statuses: statuses) {
                    coreEvents.publish(.policy(view))
                }
            } catch {
                logger.debug("a structure's policy status could not be read for its signal", [("structure", id.rawValue), ("error", "\(error)")])
            }
        }
    }

    func emitStructureChanged(_ id: StructureID, _ changed: [StructureProperty: DBusValue]) {
        guard exportedStructures.contains(id) else { return }
        let pairs = changed.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.name, $0.value) }
        do {
            try connection.emitPropertiesChanged(path: Self.structurePath(id), interface: TBRDBusAPI.Structure.interface, changed: pairs)
        } catch {
            logger.warning("could not signal a structure's property change", [("structure", id.rawValue), ("error", "\(error)")])
        }
    }

    /// The value of property `p` of structure `id`.
    func value(of p: StructureProperty, structure id: StructureID) async throws -> DBusValue {
        switch p {
        case .name: .string(try await info(id).name)
        case .internetAccessOption: .string(Self.busName(try await structures.settings(of: id).internetAccessOption))
        case .defaultThreadNetworkId: .string(try await structures.settings(of: id).defaultThreadNetworkId?.description ?? "")
        case .borderRouters: try await routerPaths(id)
        case .policyStatus: Self.policyRows(try await policyStatus(id))
        case .matterNodes: try await matterNodeRows(id).dbusValue
        case .rooms: try await roomNames(id).dbusValue
        case .networks: try await networkEntries(id).map(NetworkDirectory.row).dbusValue
        case .preferredNetwork: .string(try await structures.settings(of: id).defaultThreadNetworkId?.description ?? "")
        case .migration: try await migrations.migration(of: id).dbusValue
        }
    }

    /// Writes property `p` of structure `id` (only the writable ones reach here).
    func setValue(_ value: DBusValue, of p: StructureProperty, structure id: StructureID) async throws {
        let text = try value.decode(as: String.self)
        switch p {
        case .internetAccessOption:
            guard let option = Self.option(busName: text) else {
                throw DaemonError.invalid(
                    "\(Quoted(text)) is not an internet-access option (\(TBRDBusAPI.Structure.internetAccessOptions.joined(separator: ", ")))")
            }
            try await update(id, reapplying: true) { $0.internetAccessOption = option }
        case .defaultThreadNetworkId:
            let xpan: ExtendedPANID?
            if text.isEmpty {
                xpan = nil
            } else {
                guard text.count == 16, let parsed = ExtendedPANID(text) else {
                    throw DaemonError.invalid("\(Quoted(text)) is not an extended PAN ID (16 hex digits, or empty for none)")
                }
                xpan = parsed
            }
            try await update(id) { $0.defaultThreadNetworkId = xpan }
        case .preferredNetwork:
            try await setPreferredNetwork(id, text)
        case .name, .borderRouters, .policyStatus, .matterNodes, .rooms, .networks, .migration:
            throw DBusError(.propertyReadOnly, "\(p.rawValue) is read-only")
        }
    }

    nonisolated func structureInterface(_ id: StructureID) -> Interface {
        Interface(
            TBRDBusAPI.Structure.interface,
            methods: matterMethods(id) + networkMethods(id) + migrationMethods(id),
            properties: StructureProperty.allCases.map { p in
                let get: @Sendable () async throws -> DBusValue = { [self] in try await self.value(of: p, structure: id) }
                guard p.isWritable else { return property(p, get: get) }
                return property(p, get: get, set: { [self] value in try await self.setValue(value, of: p, structure: id) })
            },
            signals: [TBRDBusAPI.Structure.commissioningProgress.declaration])
    }
}
