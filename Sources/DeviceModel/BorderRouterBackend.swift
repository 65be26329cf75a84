public import TBRFoundation
/// What a border router backend does for the traits: the seam between the device model (no I/O) and
/// the service that talks to otbr-agent.
///
/// `BorderRouterService` implements it for every otbr-agent on the bus; tests of pure logic may implement
/// it in memory. Attribute reads go to the router; the synchronous members answer from what the router
/// last said. Streams follow the buffering of ``AttributeStream`` and ``EventStream``.
public protocol BorderRouterBackend: Sendable {
    /// The router's id.
    var deviceID: DeviceID { get }
    /// A name for people.
    var displayName: String { get }
    /// Whether the router can be reached now.
    var isOnline: Bool { get }
    /// What the router supports, as it last said.
    var support: BorderRouterSupport { get }

    /// Reads the capabilities from the router.
    func capabilities() async throws(HomeError) -> ThreadNetworkCapabilitiesTrait.Attributes
    /// The capabilities through `transform`: current result first, then each change.
    func capabilitiesUpdates<T: Sendable & Equatable>(
        _ transform: @escaping @Sendable (ThreadNetworkCapabilitiesTrait.Attributes) -> T
    ) -> AttributeStream<T>

    /// Reads the network the router is on (nil when it has none).
    func networkInfo() async throws(HomeError) -> ThreadNetworkManagementTrait.NetworkInfo?
    /// The network the router is on: current value first, then each change.
    func networkInfoUpdates() -> AttributeStream<ThreadNetworkManagementTrait.NetworkInfo?>

    /// Reads the basic information.
    func basicInformation() async throws(HomeError) -> BasicInformationTrait.Attributes
    /// The basic information through `transform`: current result first, then each change.
    func basicInformationUpdates<T: Sendable & Equatable>(
        _ transform: @escaping @Sendable (BasicInformationTrait.Attributes) -> T
    ) -> AttributeStream<T>

    /// Starts an ePSKc session; every failure is a status of the response.
    func activateEpskcMode(_ request: ThreadNetworkManagementTrait.ActivateEpskcModeRequest) async
        -> ThreadNetworkManagementTrait.ActivateEpskcModeResponse
    /// Ends the active ePSKc key, if any; with `retainActiveSession` a commissioner already connected
    /// with the key keeps its session (the key then ends when it disconnects).
    func deactivateEpskcMode(retainActiveSession: Bool) async throws(HomeError)
    /// Joins (or moves the network to) the dataset of `request`; every failure is a status.
    func joinNetwork(_ request: ThreadNetworkManagementTrait.JoinNetworkRequest) async
        -> ThreadNetworkManagementTrait.JoinNetworkResponse
    /// Leaves the network; returns when the router is back.
    func leaveNetwork() async throws(HomeError)

    /// The router's ePSKc events through `transform` (nil skips an event), from now on.
    func epskcEvents<T: Sendable>(bufferLimit: Int, _ transform: @escaping @Sendable (EpskcEvent) -> T?) -> EventStream<T>
}

/// What a border router can do, as it last said; answers every "is it supported" without I/O.
public struct BorderRouterSupport: Hashable, Sendable, Codable {
    /// ePSKc: `activateEpskcMode`, `deactivateEpskcMode` and their events. otbr-agent: built with
    /// `OTBR_ENABLE_EPSKC` and the feature switched on (`EphemeralKeyEnabled` reads true).
    public var epskc: Bool
    /// The router says what internet access it can give (otbr-agent: the `Capabilities` property exists).
    public var internetAccessCapabilities: Bool
    /// `joinNetwork` and `leaveNetwork` (otbr-agent's `Join` and `LeaveNetwork`).
    public var networkManagement: Bool
    /// Moving the whole mesh to another dataset (otbr-agent's `AttachAllNodesTo`, RCP builds).
    public var wholeNetworkMigration: Bool

    /// Support as given.
    public init(epskc: Bool, internetAccessCapabilities: Bool, networkManagement: Bool, wholeNetworkMigration: Bool) {
        self.epskc = epskc
        self.internetAccessCapabilities = internetAccessCapabilities
        self.networkManagement = networkManagement
        self.wholeNetworkMigration = wholeNetworkMigration
    }

    /// Nothing known yet: a router that has never answered.
    public static var unknown: BorderRouterSupport {
        BorderRouterSupport(epskc: false, internetAccessCapabilities: false, networkManagement: false, wholeNetworkMigration: false)
    }
}
