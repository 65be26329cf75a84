import RouterFleet
import InternetAccessPolicy
import MatterCommissioning
public import DeviceModel
public import TBRFoundation

/// What a structure's migration or channel change needs of each router (tbrd's migration coordinator
/// decides; docs/architecture.md, "Moving a structure onto one network").
extension BorderRouterService {
    /// Sends router `id`'s whole mesh to the network of `tlvs` through a pending dataset, and returns the
    /// delay it carries: `delay` over REST (`PUT /node/dataset/pending`), the agent's own 300 s over D-Bus
    /// (`AttachAllNodesTo`, which takes no delay), 0 when the agent took it as an active dataset at once.
    /// - Throws: ``DeviceModel/HomeError``: `notFound`, `unavailable`, the agent's refusal (`Rejected` is
    ///   `failed`).
    public func sendPendingDataset(_ tlvs: [UInt8], to id: DeviceID, delay: Duration) async throws(HomeError) -> Duration {
        guard let router = routers[id] else { throw HomeError(.notFound, "there is no border router with the id \(id)") }
        do {
            let given = try await router.channel.attachAllNodes(to: tlvs, delay: delay)
            await router.refresh()
            return given
        } catch {
            throw error.homeError("sending the pending dataset", on: id)
        }
    }

    /// Router `id`'s network now, then each change (from the agent's `ActiveDatasetTlvs` signals or REST
    /// polling); nil for an unknown router.
    public func networkUpdates(of id: DeviceID) -> AttributeStream<ThreadNetworkManagementTrait.NetworkInfo?>? {
        routers[id]?.networkInfoUpdates()
    }
}
