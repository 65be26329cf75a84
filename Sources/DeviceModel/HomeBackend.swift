public import TBRFoundation

/// What a ``Home`` is built on: the devices a backend manages and the store of its structures.
///
/// `BorderRouterService` implements it over otbr-agent; tests of pure logic may implement it in memory.
public protocol HomeBackend: Sendable {
    /// The ids of every device the backend knows, online or not, sorted.
    func deviceIDs() async -> [DeviceID]

    /// The border router `id`, its "supported" answers refreshed from the device when it is online.
    /// - Throws: ``HomeError`` `notFound` for an unknown id.
    func borderRouter(_ id: DeviceID) async throws(HomeError) -> any BorderRouterBackend

    /// Where structures and their settings are kept.
    var structureStore: any StructureStore { get }
}
