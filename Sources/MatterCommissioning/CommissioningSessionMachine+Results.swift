package import DeviceModel
package import MatterCommissioner
import MatterOnboarding
package import MeshCoP
import TBRFoundation

/// The results of the directives, fed back by ``CommissioningCoordinator``: each is taken only for the
/// payload in flight (a result for any other is ignored) and moves it to its next stage, or fails it at
/// the stage that failed.
extension CommissioningSessionMachine {
    /// The dataset of the payload's network was read (or could not be).
    package mutating func datasetRead(_ ref: PayloadRef, _ result: Result<OperationalDataset, HomeError>, now: Instant, wall: WallTime)
        -> [CommissioningDirective]
    {
        guard ref == inFlight, let payload = payload(ref) else { return [] }
        switch result {
        case .failure(let error):
            return fail(ref, at: .networkSelected, error.message, now: now, wall: wall)
        case .success(let dataset):
            guard dataset.extendedPANID == payload.network else {
                return fail(
                    ref, at: .networkSelected, "the router's active dataset is not of network \(payload.network) any more", now: now, wall: wall)
            }
            update(ref) { $0.stage = .networkSelected }
            return [publish(ref, .networkSelected, wall), .handOverCredentials(ref, dataset)]
        }
    }

    /// The commissioner took the credentials (or refused them).
    package mutating func credentialsHandedOver(_ ref: PayloadRef, error: String?, now: Instant, wall: WallTime) -> [CommissioningDirective] {
        guard ref == inFlight, payload(ref) != nil else { return [] }
        if let error { return fail(ref, at: .credentialsHandedOver, error, now: now, wall: wall) }
        update(ref) { $0.stage = .credentialsHandedOver }
        return [publish(ref, .credentialsHandedOver, wall)] + startCommissioning(ref, wall: wall)
    }

    /// The commissioner reported a stage.
    package mutating func progressed(_ ref: PayloadRef, _ progress: CommissionerProgress, now: Instant, wall: WallTime) -> [CommissioningDirective] {
        guard ref == inFlight, let payload = payload(ref) else { return [] }
        switch progress {
        case .nodeAdded(let node):
            guard payload.stage.order < CommissioningStage.nodeAdded.order else { return [] }
            update(ref) {
                $0.nodeID = node
                $0.stage = .nodeAdded
            }
            return [publish(ref, .nodeAdded, wall)]
        case .interviewed(let vendor, let product):
            guard payload.stage == .nodeAdded else { return [] }
            update(ref) {
                $0.vendorID = vendor
                $0.productID = product
                $0.stage = .interviewed
            }
            return [publish(ref, .interviewed, wall)]
        }
    }

    /// The commissioner finished: a node to record, or the failure (at the stage it names; else at
    /// `commissioning` while no node was reported, at `interviewed` after one was).
    package mutating func commissioned(_ ref: PayloadRef, _ result: Result<CommissionedNode, CommissionerError>, now: Instant, wall: WallTime)
        -> [CommissioningDirective]
    {
        guard ref == inFlight, let payload = payload(ref), let session = sessions[ref.session] else { return [] }
        switch result {
        case .failure(let error):
            let during: CommissioningStage = payload.stage.order >= CommissioningStage.nodeAdded.order ? .interviewed : .commissioning
            return fail(ref, at: error.stage ?? during, error.message, now: now, wall: wall)
        case .success(let node):
            var directives: [CommissioningDirective] = []
            if payload.stage.order < CommissioningStage.nodeAdded.order {
                directives += progressed(ref, .nodeAdded(node.nodeID), now: now, wall: wall)
            }
            if self.payload(ref)?.stage == .nodeAdded {
                directives += progressed(ref, .interviewed(vendorID: node.vendorID, productID: node.productID), now: now, wall: wall)
            }
            let p = self.payload(ref) ?? payload
            let record = RecordedMatterNode(
                nodeID: node.nodeID, structure: session.structure, vendorID: p.vendorID ?? node.vendorID ?? 0,
                productID: p.productID ?? node.productID ?? 0, commissionedAt: wall, session: ref.session, payloadID: ref.payloadID,
                extPanID: p.options.onNetwork ? nil : p.network, backend: backend, name: p.options.name, room: p.options.room)
            return directives + [.recordNode(ref, record)]
        }
    }

    /// The node was recorded (or could not be): the payload is complete (or fails at `complete`), once
    /// the name, when one was given, was written to the device.
    package mutating func recorded(_ ref: PayloadRef, error: String?, now: Instant, wall: WallTime) -> [CommissioningDirective] {
        guard ref == inFlight, let payload = payload(ref) else { return [] }
        if let error {
            return fail(
                ref, at: .complete, "node \(payload.nodeID.map(\.description) ?? "?") was commissioned but could not be recorded: \(error)",
                now: now, wall: wall)
        }
        if let name = payload.options.name, let node = payload.nodeID { return [.writeLabel(ref, node, label: name)] }
        return completed(ref, warning: nil, now: now, wall: wall)
    }

    /// The node's name was written to its NodeLabel (or the device refused it: the node keeps its recorded
    /// name and completes, its `complete` stage saying so).
    package mutating func labelWritten(_ ref: PayloadRef, error: String?, now: Instant, wall: WallTime) -> [CommissioningDirective] {
        guard ref == inFlight, payload(ref) != nil else { return [] }
        return completed(ref, warning: error.map { "the name is recorded but the device did not take it as its NodeLabel: \($0)" }, now: now, wall: wall)
    }
}
