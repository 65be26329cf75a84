package import DeviceModel
package import MeshCoP

/// What the commissioning sessions read from the border routers, when they need it: a structure's
/// routers and networks, and a network's active dataset. ``BorderRouterService`` provides it; tests
/// may give their own.
package protocol CommissioningNetworks: Sendable {
    /// The structure's routers (online, attached, their network) and its default network, read now.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for an unknown structure.
    func commissioningView(of structure: StructureID) async throws(HomeError) -> CommissioningStructureView

    /// The active dataset of `network`, read now from an online border router of `structure` on it.
    /// - Throws: ``DeviceModel/HomeError`` `unavailable` when no online router of the structure is on the
    ///   network or none answered.
    func activeDataset(of network: ExtendedPANID, in structure: StructureID) async throws(HomeError) -> OperationalDataset
}

/// Timeouts of the commissioner's calls.
public struct CommissioningTimeouts: Hashable, Sendable {
    /// Quick calls: reachability, handing over credentials, sharing, listing nodes.
    public var call: Duration
    /// Commissioning one device (discovery, PASE, attestation, network provisioning, CASE, the interview).
    public var commission: Duration

    /// Timeouts as given (defaults: 30 s per call, 300 s per device).
    public init(call: Duration = .seconds(30), commission: Duration = .seconds(300)) {
        self.call = call
        self.commission = commission
    }
}
