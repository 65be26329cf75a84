public import TBRFoundation

/// A home: its devices and its structures, as the Google Home APIs present them.
///
/// ```swift
/// let home = service.home
/// for device in try await home.devices() { print(device.id, device.isOnline) }
/// let device = try await home.device(id: "wpan0")
/// ```
public struct Home: Sendable {
    /// The backend the home is built on.
    public let backend: any HomeBackend

    /// A home over `backend`.
    public init(backend: any HomeBackend) { self.backend = backend }

    /// Every device, sorted by id (offline ones included).
    public func devices() async -> [HomeDevice] {
        var result: [HomeDevice] = []
        for id in await backend.deviceIDs() {
            if let device = try? await device(id: id) { result.append(device) }
        }
        return result
    }

    /// The device `id`, with the device types it is.
    /// - Throws: ``HomeError`` `notFound`.
    public func device(id: DeviceID) async throws(HomeError) -> HomeDevice {
        let router = try await backend.borderRouter(id)
        let root = RootNodeDevice(basicInformation: BasicInformationTrait(backend: router))
        let br = BorderRouterDevice(router: router, rootNode: root)
        return HomeDevice(id: id, name: router.displayName, types: [root, br], isOnline: { router.isOnline })
    }

    /// Every structure, sorted by name.
    public func structures() async throws(HomeError) -> [Structure] {
        let store = backend.structureStore
        return try await store.structures().map { Structure(info: $0, store: store) }
    }

    /// The structure `id`.
    /// - Throws: ``HomeError`` `notFound`.
    public func structure(id: StructureID) async throws(HomeError) -> Structure {
        let store = backend.structureStore
        guard let info = try await store.structures().first(where: { $0.id == id }) else {
            throw HomeError(.notFound, "there is no structure with the id \(id)")
        }
        return Structure(info: info, store: store)
    }

    /// Creates a structure named `name`.
    /// - Throws: ``HomeError`` `invalidArgument` for an empty name or one already taken.
    public func createStructure(name: String) async throws(HomeError) -> Structure {
        let store = backend.structureStore
        return Structure(info: try await store.createStructure(name: name), store: store)
    }
}
