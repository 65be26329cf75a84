public import RouterFleet
import InternetAccessPolicy
import MatterCommissioning
public import DeviceModel
public import OpenThreadBR
public import TBRFoundation

extension BorderRouterService {
    /// How long reading a router's mesh may take before it fails (the default of 5 s).
    public static let meshReadLimit: Duration = .seconds(5)

    /// Router `id`'s mesh, every table read fresh from its agent within `limit`.
    /// - Throws: ``DeviceModel/HomeError``: `notFound`, `unavailable` when the agent does not answer (in
    ///   time), the agent's error otherwise.
    public func meshTopology(of id: DeviceID, within limit: Duration = meshReadLimit, wholeMesh: Bool = true) async throws(HomeError) -> MeshTopology {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        let channel = router.channel
        let outcome: TimeLimit.Outcome<MeshTopology>
        do {
            outcome = try await TimeLimit.run(limit, clock: clock) { try await channel.meshTopology(wholeMesh: wholeMesh) }
        } catch let error as RouterCallError {
            throw error.homeError("reading the mesh", on: id)
        } catch {
            throw HomeError(.failed, "reading the mesh of \(id) was cancelled")
        }
        guard case .finished(let topology) = outcome else {
            throw HomeError(.unavailable, "reading the mesh of \(id) failed: \(channel.agentName) did not answer within \(limit)")
        }
        return topology
    }
}

extension BorderRouterService {
    /// What a diagnosis reads from router `id`'s agent besides its mesh; nil for an unknown router.
    public func healthReadings(of id: DeviceID) async -> RouterHealth? {
        guard let router = routers[id] else { return nil }
        return await router.channel.healthReadings()
    }

    /// How router `id`'s agent is reached and where; nil for an unknown router.
    public func transport(of id: DeviceID) -> (transport: RouterTransport, address: String)? {
        routers[id].map { ($0.channel.transport, $0.channel.address) }
    }

    /// Router `id`'s energy scan: the strongest energy per channel of its preferred mask.
    /// - Throws: ``DeviceModel/HomeError``: `notFound`, `notSupported` where the agent has no scan (REST),
    ///   `unavailable` when it does not answer.
    public func energyScan(of id: DeviceID, duration: Duration) async throws(HomeError) -> [EnergyScanResult] {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        do { return try await router.channel.energyScan(duration: duration) } catch { throw error.homeError("EnergyScan", on: id) }
    }

    /// The channels router `id`'s radio supports, as a page-0 mask; nil where the transport cannot say.
    /// - Throws: ``DeviceModel/HomeError`` `notFound`, or the agent's failure.
    public func supportedChannelMask(of id: DeviceID) async throws(HomeError) -> UInt32? {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        do { return try await router.channel.supportedChannelMask() } catch {
            if error.isMissing { return nil }
            throw error.homeError("reading the supported channels", on: id)
        }
    }
}
