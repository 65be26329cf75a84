import DBus
import TBRDBusAPI
import DeviceModel
import MeshCoP

// io.tbrd.Structure1 at /io/tbrd/structure/<id>, and the Manager1 calls that change structures.

extension Daemon {
    static let structureInterfaceName = TBRDBusAPI.structure

    static func structurePath(_ id: StructureID) -> ObjectPath { structuresPath.appending(id.rawValue) }

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
        guard let connection, !exportedStructures.contains(id) else { return }
        exportedStructures.insert(id)
        await connection.export([structureInterface(id)], at: Self.structurePath(id))
    }

    func allStructures() async throws -> [StructureInfo] {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        do { return try await structures.structures() } catch { throw DaemonError.from(error) }
    }

    func structure(named name: String) async throws -> StructureInfo {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let found: StructureInfo?
        do { found = try await structures.structure(named: name) } catch { throw DaemonError.from(error) }
        guard let found else { throw DaemonError.missing("there is no structure named \"\(name)\"") }
        return found
    }

    func createStructure(_ name: String) async throws -> ObjectPath {
        guard let structures, let connection else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let info: StructureInfo
        do { info = try await structures.createStructure(name: name) } catch { throw DaemonError.from(error) }
        await exportStructure(info.id)
        let path = Self.structurePath(info.id)
        try? connection.emit(path: Self.managerPath, interface: Self.managerInterfaceName, member: "StructureAdded",
                             arguments: [.objectPath(path), .string(info.name)])
        logger.info("structure created", [("structure", info.name)])
        return path
    }

    func deleteStructure(_ name: String) async throws {
        guard let structures, let connection else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let info = try await structure(named: name)
        do { try await structures.deleteStructure(info.id) } catch { throw DaemonError.from(error) }
        let path = Self.structurePath(info.id)
        await connection.unexport(path)
        exportedStructures.remove(info.id)
        try? connection.emit(path: Self.managerPath, interface: Self.managerInterfaceName, member: "StructureRemoved",
                             arguments: [.objectPath(path), .string(info.name)])
        logger.info("structure deleted", [("structure", info.name)])
    }

    func addBorderRouter(_ structureName: String, _ router: String) async throws {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let info = try await structure(named: structureName)
        let id = try await resolve(router)
        do { try await structures.addDevice(id, to: info.id) } catch { throw DaemonError.from(error) }
        emitStructureChanged(info.id, ["BorderRouters": try await routerPaths(info.id)])
        emitRouterChanged(id, ["Structure": .string(info.name)])
    }

    func removeBorderRouter(_ structureName: String, _ router: String) async throws {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let info = try await structure(named: structureName)
        let id = try await resolve(router)
        do { try await structures.removeDevice(id, from: info.id) } catch { throw DaemonError.from(error) }
        emitStructureChanged(info.id, ["BorderRouters": try await routerPaths(info.id)])
        emitRouterChanged(id, ["Structure": .string("")])
    }

    private func info(_ id: StructureID) async throws -> StructureInfo {
        guard let found = try await allStructures().first(where: { $0.id == id }) else {
            throw DaemonError.missing("there is no structure with the id \(id)")
        }
        return found
    }

    private func routerPaths(_ id: StructureID) async throws -> DBusValue {
        .array(element: .objectPath, try await info(id).deviceIDs.map { .objectPath(Self.routerPath($0)) })
    }

    private func settings(_ id: StructureID) async throws -> ThreadNetworkSettingsTrait.Attributes {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        do { return try await structures.settings(of: id) } catch { throw DaemonError.from(error) }
    }

    private func update(_ id: StructureID, _ change: @escaping @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void) async throws {
        guard let structures else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let updated: ThreadNetworkSettingsTrait.Attributes
        do { updated = try await structures.updateSettings(of: id, change) } catch { throw DaemonError.from(error) }
        emitStructureChanged(id, [
            "InternetAccessOption": .string(Self.busName(updated.internetAccessOption)),
            "DefaultThreadNetworkId": .string(updated.defaultThreadNetworkId?.description ?? ""),
        ])
    }

    private func policyStatus(_ id: StructureID) async throws -> DBusValue {
        guard let store else { throw DBusError(DaemonError.unavailable, "tbrd is starting") }
        let policies = try await store.appliedPolicies(inStructure: try PersistentStructureStore.recordID(id))
        return .array(element: .structure([.string, .string, .string]), policies.sorted { $0.key < $1.key }.map { router, p in
            let (state, error): (String, String) =
                switch p.state {
                case .applied: ("applied", "")
                case .pending: ("pending", "")
                case .failed(let why): ("failed", why)
                }
            return .structure([.string(router.rawValue), .string(state), .string(error)])
        })
    }

    func emitStructureChanged(_ id: StructureID, _ changed: [String: DBusValue]) {
        guard let connection, exportedStructures.contains(id) else { return }
        let pairs = changed.sorted { $0.key < $1.key }.compactMap { k, v in (try? MemberName(k)).map { ($0, v) } }
        try? connection.emitPropertiesChanged(path: Self.structurePath(id), interface: Self.structureInterfaceName, changed: pairs)
    }

    nonisolated func structureInterface(_ id: StructureID) -> Interface {
        Interface(Self.structureInterfaceName, properties: [
            Property("Name", type: .string, get: { [self] in .string(try await self.info(id).name) }),
            Property("InternetAccessOption", type: .string, get: { [self] in
                .string(Self.busName(try await self.settings(id).internetAccessOption))
            }, set: { [self] value, _ in
                let text = try value.decode(as: String.self)
                guard let option = Self.option(busName: text) else {
                    throw DaemonError.invalid(
                        "\"\(text)\" is not an internet-access option (unspecified, none, all, nat64Only, dhcpv6PdOnly)")
                }
                try await self.update(id) { $0.internetAccessOption = option }
            }),
            Property("DefaultThreadNetworkId", type: .string, get: { [self] in
                .string(try await self.settings(id).defaultThreadNetworkId?.description ?? "")
            }, set: { [self] value, _ in
                let text = try value.decode(as: String.self)
                let xpan: ExtendedPANID?
                if text.isEmpty {
                    xpan = nil
                } else {
                    guard text.count == 16, let parsed = ExtendedPANID(text) else {
                        throw DaemonError.invalid("\"\(text)\" is not an extended PAN ID (16 hex digits, or empty for none)")
                    }
                    xpan = parsed
                }
                try await self.update(id) { $0.defaultThreadNetworkId = xpan }
            }),
            Property("BorderRouters", type: .array(.objectPath), get: { [self] in try await self.routerPaths(id) }),
            Property("PolicyStatus", type: .array(.structure([.string, .string, .string])), emitsChanged: .false, get: { [self] in
                try await self.policyStatus(id)
            }),
        ])
    }
}
