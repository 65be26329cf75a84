import RouterFleet
import InternetAccessPolicy
public import MatterCommissioning
public import TBRFoundation
public import DeviceModel
public import MatterCommissioner
public import MatterOnboarding
package import MeshCoP
import OpenThreadBR

/// Matter commissioning into structures (ARCHITECTURE "Matter Thread commissioning path"): sessions per
/// structure, a queue of payloads, stages streamed as they happen, nodes recorded. Needs a commissioner
/// (given at ``BorderRouterService/init(connection:configuration:clock:logger:eventSink:structureStore:advertisedNames:firewall:commissioner:matterNodes:)``;
/// ``MatterCommissioner/NoCommissioner`` answers every call `notSupported`) and a running service.
extension BorderRouterService {
    /// Opens a commissioning session in `structure`.
    /// - Returns: the session and when it expires by itself (``BorderRouterServiceConfiguration/commissioningSessionLifetime``).
    /// - Throws: ``DeviceModel/HomeError``: `notSupported` without a commissioner; `unavailable` when the
    ///   service does not run, the commissioner cannot be reached, or no router of the structure is online;
    ///   `invalidState` when none is attached to a network; `busy` when the structure has a session;
    ///   `notFound` for an unknown structure.
    public func prepareMatterCommissioning(structure: StructureID) async throws(HomeError) -> CommissioningGrant {
        let coordinator = try runningCommissioning()
        return try await coordinator.prepare(try await commissioningView(of: structure))
    }

    /// Parses and checks `payload` (a QR code or manual code) and queues it in `session`.
    /// - Returns: the payload's id in the session.
    /// - Throws: ``DeviceModel/HomeError``: `invalidArgument` for a payload that is not valid or a network
    ///   that is unknown or ambiguous (nothing is queued); `notFound` for a session not open in the
    ///   structure; `invalidState` for a session completing or ending.
    public func commissionMatterDevice(
        session: CommissioningSessionID, structure: StructureID, payload: String, options: CommissioningOptions
    ) async throws(HomeError) -> String {
        let coordinator = try runningCommissioning()
        return try await coordinator.commission(session, in: try await commissioningView(of: structure), payload: payload, options: options)
    }

    /// Takes no more payloads in `session`, waits until every one has finished, ends the session and
    /// returns each payload's outcome, in the order they were queued.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a session not open in the structure.
    public func completeMatterCommissioning(session: CommissioningSessionID, structure: StructureID) async throws(HomeError)
        -> [CommissioningOutcome]
    {
        let name = try await structureName(structure)
        return try await runningCommissioning().complete(session, in: structure, structureName: name)
    }

    /// Cancels `session`: its queued payloads fail (at `queued`); the one being commissioned finishes (a
    /// commissioner cannot stop it), and its node, if any, is recorded; then the session ends.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a session not open in the structure.
    public func cancelMatterCommissioning(session: CommissioningSessionID, structure: StructureID) async throws(HomeError) {
        let name = try await structureName(structure)
        try await runningCommissioning().cancel(session, in: structure, structureName: name)
    }

    /// Opens a commissioning window of `seconds` on node `node` of `structure` (multi-admin) and returns
    /// the codes another controller commissions it with.
    /// - Throws: ``DeviceModel/HomeError``: `notFound` when the node is not recorded in the structure;
    ///   `unavailable`, `notSupported` or `failed` saying why the commissioner could not.
    public func shareMatterNode(_ node: NodeID, structure: StructureID, seconds: Int) async throws(HomeError) -> SharingCodes {
        let coordinator = try runningCommissioning()
        guard try await matterNodes.nodes(in: structure).contains(where: { $0.nodeID == node }) else {
            throw HomeError(.notFound, "node \(node) is not recorded in structure \(CommissioningSessionMachine.quoted(try await structureName(structure)))")
        }
        return try await coordinator.share(node, seconds: seconds)
    }

    /// Every commissioning stage of every session from now on, in order (bounded; see
    /// ``DeviceModel/EventStream``).
    public nonisolated func commissioningProgress(bufferLimit: Int = 1024) -> EventStream<CommissioningProgress> {
        commissioningBroadcaster.subscribe(bufferLimit: bufferLimit)
    }

    /// The commissioning sessions, while the service runs (they and the commissioner's connection run
    /// in ``run()``).
    /// - Throws: ``DeviceModel/HomeError`` `unavailable` before ``run()`` is running and once it stopped.
    func runningCommissioning() throws(HomeError) -> CommissioningCoordinator {
        guard case .running = phase else { throw HomeError(.unavailable, "the border router service is not running") }
        return commissioning
    }

    func structureName(_ id: StructureID) async throws(HomeError) -> String {
        guard let info = try await structureStore.structures().first(where: { $0.id == id }) else {
            throw HomeError(.notFound, "there is no structure with the id \(id)")
        }
        return info.name
    }
}

extension BorderRouterService: CommissioningNetworks {
    package func commissioningView(of structure: StructureID) async throws(HomeError) -> CommissioningStructureView {
        guard let info = try await structureStore.structures().first(where: { $0.id == structure }) else {
            throw HomeError(.notFound, "there is no structure with the id \(structure)")
        }
        let settings = try await structureStore.settings(of: structure)
        var routers: [CommissioningStructureView.Router] = []
        for id in info.deviceIDs.sorted() {
            guard let router = self.routers[id] else {
                routers.append(.init(id: id, isOnline: false, isAttached: false, network: nil))
                continue
            }
            if router.isOnline { await router.refresh() }
            let summary = router.summaryCell.value
            routers.append(
                .init(
                    id: id, isOnline: summary.isOnline, isAttached: summary.isOnline && (summary.role?.isAttached ?? false),
                    network: router.networkCell.value?.extendedPanId))
        }
        return CommissioningStructureView(
            structure: structure, name: info.name, routers: routers, defaultNetwork: settings.defaultThreadNetworkId,
            rooms: try await matterNodes.rooms(in: structure))
    }

    package func activeDataset(of network: ExtendedPANID, in structure: StructureID) async throws(HomeError) -> OperationalDataset {
        guard let info = try await structureStore.structures().first(where: { $0.id == structure }) else {
            throw HomeError(.notFound, "there is no structure with the id \(structure)")
        }
        var problems: [String] = []
        for id in info.deviceIDs.sorted() {
            guard let router = routers[id], router.isOnline else { continue }
            do {
                // Secrets: the dataset holds the network key; it goes to the commissioner only.
                guard let dataset = try await router.channel.activeDataset() else { continue }
                if dataset.extendedPANID == network { return dataset }
            } catch {
                problems.append("\(id): \(error.description)")
            }
        }
        throw HomeError(
            .unavailable,
            "no online border router of the structure is on Thread network \(network) to read its active dataset from"
                + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
    }
}
