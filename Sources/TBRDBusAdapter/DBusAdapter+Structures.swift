import TBRCoreServices
import BorderRouterService
import DBus
import MeshCoP
import TBRDBusAPI
import TBRDocuments
import TBRCore
import TBRFoundation

// io.tbrd.Structure1 at /io/tbrd/structure/<id>, and the Manager1 calls that change structures.

extension DBusAdapter {
    typealias StructureProperty = TBRDBusAPI.Structure.Property

    static func structurePath(_ id: StructureID) -> ObjectPath { TBRDBusAPI.structurePath(id.rawValue) }

    func exportStructure(_ id: StructureID) async {
        guard !exportedStructures.contains(id) else { return }
        exportedStructures.insert(id)
        await connection.export([structureInterface(id)], at: Self.structurePath(id))
    }

    /// Removes structure `id`'s object; nothing when it is not exported.
    func unexportStructure(_ id: StructureID) async {
        guard exportedStructures.remove(id) != nil else { return }
        await connection.unexport(Self.structurePath(id))
    }

    /// Maps what the structures' service publishes to D-Bus: objects exported and removed,
    /// `StructureAdded`, `StructureRemoved`, and the properties that changed (a router's `Structure` too).
    func followStructureSignals() async {
        for await signal in structureSignals {
            switch signal {
            case .added(let info):
                await exportStructure(info.id)
                emit(TBRDBusAPI.Manager.structureAdded, [.objectPath(Self.structurePath(info.id)), .string(info.name)])
            case .removed(let info):
                await unexportStructure(info.id)
                emit(TBRDBusAPI.Manager.structureRemoved, [.objectPath(Self.structurePath(info.id)), .string(info.name)])
                for router in info.deviceIDs { emitRouterChanged(router, [.structure: .string("")]) }
            case .routersChanged(let id, let router, let structure):
                if let paths = try? await routerPaths(id) { emitStructureChanged(id, [.borderRouters: paths]) }
                emitRouterChanged(router, [.structure: .string(structure)])
            case .settingsChanged(let id, let settings):
                // PreferredNetwork is DefaultThreadNetworkId under the network directory's name: one setting.
                let preferred = DBusValue.string(settings.defaultThreadNetworkId?.description ?? "")
                emitStructureChanged(id, [
                    .internetAccessOption: .string(CoreStructures.busName(settings.internetAccessOption)),
                    .defaultThreadNetworkId: preferred, .preferredNetwork: preferred,
                ])
            case .networksChanged(let id, let entries):
                emitStructureChanged(id, [.networks: entries.map(NetworkRow.init).dbusValue])
            case .roomsChanged(let id, let rooms):
                emitStructureChanged(id, [.rooms: rooms.dbusValue])
            case .matterNodesChanged(let id):
                await emitMatterNodesChanged(id)
            case .recoveryChanged(let id, let mode):
                emitStructureChanged(id, [.recovery: .string(mode)])
            }
        }
    }

    private func routerPaths(_ id: StructureID) async throws -> DBusValue {
        try await structureService.info(id).deviceIDs.map { Self.routerPath($0) }.dbusValue
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
                let statuses = try await structureService.policyStatus(id)
                emitStructureChanged(id, [.policyStatus: Self.policyRows(statuses)])
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
        case .name: .string(try await structureService.info(id).name)
        case .internetAccessOption: .string(CoreStructures.busName(try await structures.settings(of: id).internetAccessOption))
        case .defaultThreadNetworkId: .string(try await structures.settings(of: id).defaultThreadNetworkId?.description ?? "")
        case .borderRouters: try await routerPaths(id)
        case .policyStatus: Self.policyRows(try await structureService.policyStatus(id))
        case .matterNodes: try await matterNodeRows(id).dbusValue
        case .rooms: try await roomNames(id).dbusValue
        case .networks: try await structureService.networkEntries(id).map(NetworkRow.init).dbusValue
        case .preferredNetwork: .string(try await structures.settings(of: id).defaultThreadNetworkId?.description ?? "")
        case .migration: try await migrations.migration(of: id).dbusValue
        case .recovery: .string(try await recovery.recovery(of: try await structureService.info(id).name))
        }
    }

    /// Writes property `p` of structure `id` (only the writable ones reach here).
    func setValue(_ value: DBusValue, of p: StructureProperty, structure id: StructureID) async throws {
        let text = try value.decode(as: String.self)
        switch p {
        case .internetAccessOption:
            guard let option = CoreStructures.option(busName: text) else {
                throw DaemonError.invalid(
                    "\(Quoted(text)) is not an internet-access option (\(TBRDBusAPI.Structure.internetAccessOptions.joined(separator: ", ")))")
            }
            try await structureService.update(id, reapplying: true) { $0.internetAccessOption = option }
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
            try await structureService.update(id) { $0.defaultThreadNetworkId = xpan }
        case .preferredNetwork:
            try await structureService.setPreferredNetwork(id, text)
        case .recovery:
            guard TBRDBusAPI.Structure.recoveryModes.contains(text) else {
                throw DaemonError.invalid("\(Quoted(text)) is not a recovery mode (off, ask, auto)")
            }
            _ = try await recovery.setRecovery(of: try await structureService.info(id).name, mode: text)
        case .name, .borderRouters, .policyStatus, .matterNodes, .rooms, .networks, .migration:
            throw DBusError(.propertyReadOnly, "\(p.rawValue) is read-only")
        }
    }

    nonisolated func structureInterface(_ id: StructureID) -> Interface {
        Interface(
            TBRDBusAPI.Structure.interface,
            methods: matterMethods(id) + networkMethods(id) + migrationMethods(id) + recoveryMethods(id),
            properties: StructureProperty.allCases.map { p in
                let get: @Sendable () async throws -> DBusValue = { [self] in try await self.value(of: p, structure: id) }
                guard p.isWritable else { return property(p, get: get) }
                return property(p, get: get, set: { [self] value in try await self.setValue(value, of: p, structure: id) })
            },
            signals: [TBRDBusAPI.Structure.commissioningProgress.declaration, TBRDBusAPI.Structure.routerEmpty.declaration])
    }
}
