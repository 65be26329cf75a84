import TBRDocuments
import TBRDBusAPI
import DBus
import TBRFoundation

/// Structures through tbrd (`io.tbrd.Manager1` and `io.tbrd.Structure1`); only tbrd keeps them.
extension TbrdBackend {
    private typealias Manager = TBRDBusAPI.Manager
    private typealias StructureProperty = TBRDBusAPI.Structure.Property

    /// `ListStructures() → a(os)`: every structure's object path and name, sorted by name.
    func structureEntries() async throws -> [(path: ObjectPath, name: String)] {
        let reply = try await call(manager, Manager.listStructures.name, doing: "listing tbrd's structures")
        do {
            return try Self.decode(reply, as: [StructureRow].self).map { ($0.path, $0.name) }.sorted { $0.name < $1.name }
        } catch {
            throw ErrorMapping.controlError(error, doing: "listing tbrd's structures")
        }
    }

    /// Every structure with its routers and settings.
    /// Every structure with its routers and settings; one deleted between the listing and its reading
    /// is skipped (it no longer exists), never an error.
    func structures() async throws -> [StructureView] {
        let routers = try await routerEntries().map { ($0.path, $0.listing.id) }
        var views: [StructureView] = []
        for entry in try await structureEntries() {
            do {
                views.append(try await view(of: entry.path, name: entry.name, routers: routers))
            } catch StructureReadError.vanished {
                continue
            }
        }
        return views
    }

    /// A structure whose object went away while it was read.
    private enum StructureReadError: Error { case vanished }

    /// The structure called `name`.
    /// - Throws: ``ControlError`` 1 naming the known structures when there is none.
    func structure(named name: String) async throws -> StructureView {
        let path = try await structurePath(name)
        do {
            return try await view(of: path, name: name, routers: try await routerEntries().map { ($0.path, $0.listing.id) })
        } catch StructureReadError.vanished {
            throw ControlError.failure("structure \(Quoted(name)) was deleted while it was read")
        }
    }

    /// `CreateStructure(s name) → o`.
    func createStructure(_ name: String) async throws -> StructureView {
        let reply = try await call(manager, Manager.createStructure.name, [.string(name)], doing: "creating structure \(Quoted(name))")
        guard case .objectPath(let path)? = reply.first else {
            throw ControlError.failure("CreateStructure did not return an object path")
        }
        return try await view(of: path, name: name, routers: [])
    }

    /// `DeleteStructure(s name)`.
    func deleteStructure(_ name: String) async throws {
        _ = try await structurePath(name)
        _ = try await call(manager, Manager.deleteStructure.name, [.string(name)], doing: "deleting structure \(Quoted(name))")
    }

    /// `AddBorderRouter(s structure, s router)`, the router given as its id.
    func addBorderRouter(_ router: RouterRef, to structure: String) async throws {
        _ = try await structurePath(structure)
        _ = try await call(
            manager, Manager.addBorderRouter.name, [.string(structure), .string(router.id)],
            doing: "adding \(router.id) to structure \(Quoted(structure))")
    }

    /// `RemoveBorderRouter(s structure, s router)`, the router given as its id.
    func removeBorderRouter(_ router: RouterRef, from structure: String) async throws {
        _ = try await structurePath(structure)
        _ = try await call(
            manager, Manager.removeBorderRouter.name, [.string(structure), .string(router.id)],
            doing: "removing \(router.id) from structure \(Quoted(structure))")
    }

    /// `FindStructure(s name) → o`.
    /// - Throws: ``ControlError`` 1 naming the known structures when there is none.
    func structurePath(_ name: String) async throws -> ObjectPath {
        let reply: [DBusValue]
        do {
            reply = try await send(manager, Manager.findStructure.name, [.string(name)])
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notFound {
            let known = try await structureEntries().map(\.name)
            let list = known.isEmpty ? "there is none; create one with 'tbrctl structure create NAME'" : "known: \(known.joined(separator: ", "))"
            throw ControlError.failure("no structure named \(Quoted(name)) (\(list))")
        } catch {
            throw Self.mapped(error, doing: "finding structure \(Quoted(name))")
        }
        guard case .objectPath(let path)? = reply.first else {
            throw ControlError.failure("FindStructure did not return an object path")
        }
        return path
    }

    /// The properties of the structure at `path`; router paths become ids through `routers`.
    private func view(of path: ObjectPath, name: String, routers: [(ObjectPath, String)]) async throws -> StructureView {
        let object = RemoteObject(connection: connection, destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.Structure.interface)
        let p: [String: DBusValue]
        do { p = try await sendGetAll(object) } catch let error as DBusError
            where error.name == .unknownObject || error.name == TBRDBusAPI.Error.notFound
        {
            throw StructureReadError.vanished
        } catch {
            throw Self.mapped(error, doing: "reading structure \(Quoted(name))")
        }
        func string(_ key: StructureProperty) -> String { (try? p[key.rawValue]?.decode(as: String.self)) ?? "" }
        let paths = (try? p[StructureProperty.borderRouters.rawValue]?.decode(as: [ObjectPath].self)) ?? []
        let ids = paths.map { path in
            routers.first { $0.0 == path }?.1 ?? path.elements.last.map(String.init) ?? path.rawValue
        }
        let option = string(.internetAccessOption)
        let network = string(.defaultThreadNetworkId)
        let policy = ((try? p[StructureProperty.policyStatus.rawValue]?.decode(as: [PolicyStatusRow].self)) ?? []).map(Self.view)
        return StructureView(
            name: string(.name).nilIfEmpty ?? name, routers: ids.sorted(),
            settings: .init(internetAccessOption: option.nilIfEmpty ?? "unspecified", defaultThreadNetworkId: network.nilIfEmpty),
            policy: policy.sorted { $0.id < $1.id })
    }

    // MARK: the internet-access policy

    /// `io.tbrd.Structure1` at `path`.
    func structureObject(_ path: ObjectPath) -> RemoteObject {
        RemoteObject(connection: connection, destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.Structure.interface)
    }

    /// Writes `InternetAccessOption` (its D-Bus spelling); tbrd answers once the statuses it reports
    /// are about the option written.
    func setInternetAccessOption(_ option: String, structure name: String, at path: ObjectPath) async throws {
        do {
            try await structureObject(path).setProperty(StructureProperty.internetAccessOption.rawValue, .string(option))
        } catch {
            throw ErrorMapping.controlError(error, doing: "setting the internet access of structure \(Quoted(name))")
        }
    }

    /// The structure's option and `PolicyStatus`, sorted by router.
    func policy(of name: String, at path: ObjectPath) async throws -> PolicyView {
        let object = structureObject(path)
        do {
            let option = try await object.property(StructureProperty.internetAccessOption.rawValue, as: String.self)
            let rows = try await object.property(StructureProperty.policyStatus.rawValue, as: [PolicyStatusRow].self)
            return PolicyView(structure: name, internetAccessOption: option, routers: rows.map(Self.view).sorted { $0.id < $1.id })
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading the policy of structure \(Quoted(name))")
        }
    }

    /// Whether router `id`'s otbr-agent is on the bus (`BorderRouter1.Online`; tbrd answers it without
    /// asking the agent).
    func isOnline(_ id: String) async throws -> Bool {
        let object = RemoteObject(
            connection: connection, destination: TBRDBusAPI.busName, path: TBRDBusAPI.routerPath(id), interface: TBRDBusAPI.BorderRouter.interface)
        do {
            return try await object.property(TBRDBusAPI.BorderRouter.Property.online.rawValue, as: Bool.self)
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading whether border router \(id) is online")
        }
    }

    static func view(_ row: PolicyStatusRow) -> PolicyRouterView {
        PolicyRouterView(id: row.router, state: row.state, detail: row.detail)
    }
}
