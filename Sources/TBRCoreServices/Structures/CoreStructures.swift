package import BorderRouterService
package import Store
import TBRCore
package import TBRDocuments
package import TBRFoundation

/// The core's structures (TBRCore's ``TBRCore/StructureCore``): structures and their routers, their
/// settings and internet-access policy, their rooms, and each one's network directory
/// (CoreStructures+Directory.swift). What changes is published on ``signals`` for the adapters (the
/// D-Bus adapter's `StructureAdded`, `StructureRemoved` and `PropertiesChanged`): this actor emits
/// nothing itself.
package actor CoreStructures {
    package let structures: PersistentStructureStore
    package let service: BorderRouterService
    package let routers: CoreRouters
    package let store: TBRStore
    package let borderAgents: BorderAgentsSeen
    /// How long a network no router of the structure is on stays fresh in the directory, in seconds.
    package let networkStaleAfter: Double
    package let clock: any TBRClock
    package let logger: Logger
    /// What changed, for the adapters; with no subscriber nothing is kept.
    package nonisolated let signals = EventBroadcaster<StructureSignal>()

    package init(
        structures: PersistentStructureStore, service: BorderRouterService, routers: CoreRouters, store: TBRStore,
        borderAgents: BorderAgentsSeen, networkStaleAfter: Double, clock: any TBRClock, logger: Logger
    ) {
        self.structures = structures
        self.service = service
        self.routers = routers
        self.store = store
        self.borderAgents = borderAgents
        self.networkStaleAfter = networkStaleAfter
        self.clock = clock
        self.logger = logger
    }

    /// The spelling of a structure's internet-access option in every adapter (docs/dbus-api.md, docs/http-api.md).
    package static func busName(_ option: ThreadNetworkSettingsTrait.InternetAccessOption) -> String {
        switch option {
        case .internetAccessOptionUnspecified: "unspecified"
        case .internetAccessOptionNone: "none"
        case .internetAccessOptionAll: "all"
        case .internetAccessOptionNat64Only: "nat64Only"
        case .internetAccessOptionDhcpv6PdOnly: "dhcpv6PdOnly"
        }
    }

    package static func option(busName: String) -> ThreadNetworkSettingsTrait.InternetAccessOption? {
        ThreadNetworkSettingsTrait.InternetAccessOption.allCases.first { Self.busName($0) == busName }
    }

    package func allStructures() async throws -> [StructureInfo] { try await structures.structures() }

    package func structure(named name: String) async throws -> StructureInfo {
        guard let found = try await structures.structure(named: name) else {
            throw ServiceError.missing("there is no structure named \(Quoted(name))")
        }
        return found
    }

    /// Creates structure `name`.
    package func createStructure(_ name: String) async throws -> StructureInfo {
        let info = try await structures.createStructure(name: name)
        signals.publish(.added(info))
        logger.info("structure created", [("structure", info.name)])
        return info
    }

    /// Deletes the structure; its routers become unassigned, and each signals its `Structure` as `""`.
    package func removeStructure(_ name: String) async throws -> StructureInfo {
        let info = try await structure(named: name)
        try await structures.deleteStructure(info.id)
        signals.publish(.removed(info))
        logger.info("structure deleted", [("structure", info.name)])
        return info
    }

    package func addBorderRouter(_ structureName: String, _ router: String) async throws {
        let info = try await structure(named: structureName)
        let id = try await routers.resolve(router)
        try await structures.addDevice(id, to: info.id)
        await service.policySettled()
        signals.publish(.routersChanged(info.id, router: id, structure: info.name))
    }

    package func removeBorderRouter(_ structureName: String, _ router: String) async throws {
        let info = try await structure(named: structureName)
        let id = try await routers.resolve(router)
        try await structures.removeDevice(id, from: info.id)
        await service.policySettled()
        signals.publish(.routersChanged(info.id, router: id, structure: ""))
    }

    package func info(_ id: StructureID) async throws -> StructureInfo {
        guard let found = try await structures.structure(id: id) else {
            throw ServiceError.missing("there is no structure with the id \(id)")
        }
        return found
    }

    package func update(
        _ id: StructureID, reapplying: Bool = false, _ change: @escaping @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) async throws {
        let updated = try await structures.updateSettings(of: id, change)
        // The policy status read after this call is about the option just written; setting the option
        // (even to the one it had) applies it again on every router of the structure.
        if reapplying { await service.policyReapplied(id) } else { await service.policySettled() }
        signals.publish(.settingsChanged(id, updated))
    }

    /// Each router's internet-access status in structure `id`, sorted by router.
    package func policyStatus(_ id: StructureID) async throws -> [PolicyRouterView] {
        try await structures.policyStatus(of: id).map {
            PolicyRouterView(id: $0.deviceID.rawValue, state: $0.state, detail: $0.detail)
        }.sorted { $0.id < $1.id }
    }

    /// Adds room `room` to structure `id`, and publishes the rooms as they are then.
    package func addRoom(_ room: String, to id: StructureID) async throws -> [String] {
        let rooms = try await service.addRoom(room, to: id)
        signals.publish(.roomsChanged(id, rooms))
        return rooms
    }

    /// Removes room `room` from structure `id`, and publishes the rooms as they are then.
    package func removeRoom(_ room: String, from id: StructureID) async throws -> [String] {
        let rooms = try await service.removeRoom(room, from: id)
        signals.publish(.roomsChanged(id, rooms))
        return rooms
    }
}

/// A change of a structure, as the core publishes it (``CoreStructures/signals``).
package enum StructureSignal: Sendable {
    /// A structure was created.
    case added(StructureInfo)
    /// A structure was deleted, with the routers it had.
    case removed(StructureInfo)
    /// `router` joined the structure (`structure` is its name) or left it (`structure` is "").
    case routersChanged(StructureID, router: DeviceID, structure: String)
    /// Its settings are now `settings`.
    case settingsChanged(StructureID, ThreadNetworkSettingsTrait.Attributes)
    /// Its network directory is now `entries`.
    case networksChanged(StructureID, [NetworkEntry])
    /// Its rooms are now `rooms`.
    case roomsChanged(StructureID, [String])
    /// Its Matter nodes changed (one was commissioned, named, placed, removed or adopted).
    case matterNodesChanged(StructureID)
    /// Its recovery mode is now `mode` (`off`, `ask`, `auto`).
    case recoveryChanged(StructureID, String)
}
