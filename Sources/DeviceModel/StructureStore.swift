public import TBRFoundation
/// Where structures, their ``ThreadNetworkSettingsTrait`` settings (the desired policy) and the policy's
/// state on each router are kept.
///
/// `BorderRouterService` keeps them in memory (`InMemoryStructureStore`); tbrd backs this protocol with
/// its SQLite store, writing the desired settings in one transaction before anything is applied. Every
/// change is announced on ``changes(bufferLimit:)`` after it is stored: the policy reconciler applies
/// from there.
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

    /// The internet-access policy's state on each border router of `structure`, sorted by router, as the
    /// policy reconciler last recorded it (empty before it has).
    /// - Throws: ``HomeError`` `notFound`.
    func policyStatus(of structure: StructureID) async throws(HomeError) -> [RouterPolicyStatus]

    /// Records the policy state of every router of `structure` (the whole list: a router absent from it
    /// has none) while `option` is applied, in one step, then streams it and announces
    /// ``StructureChange/policyStatusChanged(_:)``.
    /// - Throws: ``HomeError`` `notFound`; `failed` when it cannot be stored.
    func recordPolicyStatus(
        _ statuses: [RouterPolicyStatus], option: ThreadNetworkSettingsTrait.InternetAccessOption, of structure: StructureID
    ) async throws(HomeError)

    /// The policy status of `structure`: current first, then each change. The stream ends at once for an
    /// unknown structure.
    func policyStatusUpdates(of structure: StructureID) -> AttributeStream<[RouterPolicyStatus]>

    /// Every change of every structure from now on, each announced after it is stored (bounded; see
    /// ``EventStream``).
    func changes(bufferLimit: Int) -> EventStream<StructureChange>
}
