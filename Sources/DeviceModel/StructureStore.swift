/// Where structures and their ``ThreadNetworkSettingsTrait`` settings are kept.
///
/// `BorderRouterService` keeps them in memory (`InMemoryStructureStore`); tbrd backs this protocol with
/// its SQLite store, writing the desired settings in one transaction before anything is applied.
public protocol StructureStore: Sendable {
    /// Every structure, sorted by name.
    func structures() async throws(HomeError) -> [StructureInfo]

    /// Creates a structure named `name`, with default settings.
    /// - Throws: ``HomeError`` `invalidArgument` for an empty name or a name already taken.
    func createStructure(name: String) async throws(HomeError) -> StructureInfo

    /// Adds `device` to `structure`; harmless when it is already there.
    /// - Throws: ``HomeError`` `notFound`.
    func addDevice(_ device: DeviceID, to structure: StructureID) async throws(HomeError)

    /// The settings of `structure`.
    /// - Throws: ``HomeError`` `notFound`.
    func settings(of structure: StructureID) async throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes

    /// Changes the settings of `structure` with `change`, as one step, and returns the result.
    /// - Throws: ``HomeError`` `notFound`.
    func updateSettings(
        of structure: StructureID, _ change: @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void
    ) async throws(HomeError) -> ThreadNetworkSettingsTrait.Attributes

    /// The settings of `structure` through `transform`: current first, then each change. The stream ends
    /// at once for an unknown structure. No I/O: a store keeps what it streams in memory.
    func settingsUpdates<T: Sendable & Equatable>(
        of structure: StructureID, _ transform: @escaping @Sendable (ThreadNetworkSettingsTrait.Attributes) -> T
    ) -> AttributeStream<T>
}
