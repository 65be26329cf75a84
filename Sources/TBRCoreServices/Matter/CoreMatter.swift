package import BorderRouterService
import FoundationEssentials
import MatterOnboarding
import MeshCoP
package import TBRCore
package import TBRDocuments
package import TBRFoundation

/// Work a call started that goes on after its answer (a commissioning session completing): tbrd runs
/// it as a child of its service group, so stopping tbrd cancels it, never in an unstructured task.
package typealias BackgroundWork = @Sendable () async -> Void

/// The core's Matter devices (TBRCore's ``TBRCore/MatterCore``): commissioning sessions and the nodes
/// of each structure. Every call checks a commissioner is configured (but placing a node in a room);
/// payloads (they hold the setup passcode) are handed to the service and never logged; a shared node's
/// codes go to the caller only. A change of a structure's nodes is published as
/// ``StructureSignal/matterNodesChanged(_:)`` on the structures' signals.
package actor CoreMatter {
    package let service: BorderRouterService
    package let structures: CoreStructures
    /// Whether tbrd.conf configures a commissioner (`matter-backend`).
    package let hasCommissioner: Bool
    package let logger: Logger
    /// Where work that goes on after a call's answer is handed (a session completing): tbrd's service
    /// group runs it, so stopping tbrd cancels it.
    package let background: AsyncStream<BackgroundWork>.Continuation

    package init(
        service: BorderRouterService, structures: CoreStructures, hasCommissioner: Bool, logger: Logger,
        background: AsyncStream<BackgroundWork>.Continuation
    ) {
        self.service = service
        self.structures = structures
        self.hasCommissioner = hasCommissioner
        self.logger = logger
        self.background = background
    }

    /// Hands `work` to the service group; false (nothing done) when too much already waits to start.
    private func inBackground(_ work: @escaping BackgroundWork) -> Bool {
        if case .enqueued = background.yield(work) { return true }
        return false
    }

    /// Refused with `NotSupported`, saying how to configure one, unless a commissioner is configured.
    package func requireCommissioner() throws {
        guard hasCommissioner else {
            throw CoreError(
                .notSupported,
                "tbrd has no Matter commissioner: set matter-backend = matter-server (with matter-server-url) in tbrd.conf and "
                    + "restart tbrd (docs/operations.md)")
        }
    }

    // MARK: sessions

    /// Opens a commissioning session into structure `id`.
    package func prepare(_ id: StructureID) async throws -> CommissioningGrant {
        try requireCommissioner()
        return try await service.prepareMatterCommissioning(structure: id)
    }

    /// Queues `payload` in `session` of structure `id`; answers its payload id.
    package func commission(_ id: StructureID, session: CommissioningSessionID, payload: String, options: CommissioningOptions) async throws -> String {
        try requireCommissioner()
        return try await service.commissionMatterDevice(session: session, structure: id, payload: payload, options: options)
    }

    /// Completes `session` of structure `id`: each queued payload's outcome, once all are done.
    package func complete(_ id: StructureID, session: CommissioningSessionID) async throws -> [CommissioningOutcome] {
        try requireCommissioner()
        return try await service.completeMatterCommissioning(session: session, structure: id)
    }

    /// Cancels `session` of structure `id`: its queued payloads fail at `queued`; the one in flight finishes.
    package func cancel(_ id: StructureID, session: String) async throws {
        try requireCommissioner()
        try await service.cancelMatterCommissioning(session: CommissioningSessionID(rawValue: session), structure: id)
    }

    /// Opens a commissioning window on `node` of structure `id` for `seconds` (0: Matter's default), so
    /// another controller can commission it; the codes go to the caller only.
    package func share(_ id: StructureID, node: UInt64, seconds: UInt16) async throws -> SharingCodes {
        try requireCommissioner()
        let window = seconds == 0 ? MatterLimits.defaultCommissioningWindowSeconds : seconds
        guard MatterLimits.commissioningWindowSeconds.contains(window) else {
            throw ServiceError.invalid("a commissioning window lasts 180…900 seconds (Matter), not \(window)")
        }
        let codes = try await service.shareMatterNode(NodeID(node), structure: id, seconds: Int(window))
        logger.info("a Matter node's commissioning window was opened", [("node", String(node)), ("seconds", String(window))])
        return codes
    }

    // MARK: nodes

    /// The nodes the commissioner holds that no structure has claimed.
    package func unclaimedNodes() async throws -> [CommissionedNode] {
        try requireCommissioner()
        return try await service.unclaimedMatterNodes()
    }

    /// Changes the Matter nodes of structure `id` with `change` (which talks to the commissioner unless
    /// `needsCommissioner` is false) and publishes that they changed.
    package func changeNodes<T: Sendable>(
        _ id: StructureID, needsCommissioner: Bool = true, _ change: (BorderRouterService) async throws -> T
    ) async throws -> T {
        if needsCommissioner { try requireCommissioner() }
        let result = try await change(service)
        structures.signals.publish(.matterNodesChanged(id))
        return result
    }
}

extension CoreMatter: MatterCore {
    /// The Matter nodes of structure `name`, as `tbrctl --json matter nodes --structure` shows them.
    package func matterNodes(of name: String) async throws -> [MatterNodeView] {
        let info = try await structures.structure(named: name)
        // Times to the millisecond, as every adapter carries them (D-Bus's `x` of milliseconds).
        return try await service.matterNodes.nodes(in: info.id).map {
            MatterNodeView(
                structure: info.name, nodeId: $0.nodeID.rawValue, vendorId: $0.vendorID == 0 ? nil : $0.vendorID,
                productId: $0.productID == 0 ? nil : $0.productID, commissionedAt: WallTime(milliseconds: $0.commissionedAt.milliseconds),
                name: $0.name?.nilIfEmpty, room: $0.room?.nilIfEmpty)
        }
    }

    /// The most codes one order may queue.
    package static let commissioningBatchLimit = 32

    /// Commissions the devices of `order` into structure `name`, one at a time, as `tbrctl matter
    /// commission` does: every code and the name are checked before anything is queued; then a session
    /// is opened, the codes queued, and the session completed in the background (``inBackground(_:)``,
    /// so that tbrd stopping cancels it). The answer comes once the codes are queued.
    package func startCommissioning(into name: String, _ order: CommissioningOrder) async throws -> CommissioningStarted {
        try requireCommissioner()
        guard !order.codes.isEmpty, order.codes.count <= Self.commissioningBatchLimit else {
            throw ServiceError.invalid("codes holds 1 to \(Self.commissioningBatchLimit) QR codes (MT:…) or manual pairing codes")
        }
        for (i, code) in order.codes.enumerated() {
            do { _ = try SetupPayload(parsing: code) } catch {
                throw ServiceError.invalid("code \(i + 1) is not a valid onboarding payload: \(error.description); nothing was queued")
            }
        }
        var options = CommissioningOptions(onNetwork: order.onNetwork, name: order.name?.nilIfEmpty, room: order.room?.nilIfEmpty)
        if let text = order.network {
            guard text.count == 16, let xpan = ExtendedPANID(text) else { throw ServiceError.invalid("network is an extended PAN ID (16 hex digits)") }
            options.network = xpan
        }
        if let nodeName = options.name {
            guard order.codes.count == 1 else { throw ServiceError.invalid("name names one node: give it with one code only") }
            if let problem = NameRules.problem(with: nodeName, maximumBytes: MatterLimits.nodeNameBytes) {
                throw ServiceError.invalid("\(Quoted(nodeName)) cannot name a Matter node: \(problem); nothing was queued")
            }
        }
        let info = try await structures.structure(named: name)
        let session = try await service.prepareMatterCommissioning(structure: info.id).session
        var payloads: [CommissioningStarted.Payload] = []
        do {
            for (i, code) in order.codes.enumerated() {
                payloads.append(.init(payload: i + 1, payloadId: try await commission(info.id, session: session, payload: code, options: options)))
            }
        } catch {
            try? await service.cancelMatterCommissioning(session: session, structure: info.id)
            throw error
        }
        let service = self.service, logger = self.logger
        let queued = inBackground {
            do { _ = try await service.completeMatterCommissioning(session: session, structure: info.id) } catch {
                logger.warning("a commissioning session did not complete", [("session", session.rawValue), ("error", "\(error)")])
            }
        }
        guard queued else {
            try? await service.cancelMatterCommissioning(session: session, structure: info.id)
            throw CoreError(.busy, "too many commissioning sessions are being completed; try again when one ends")
        }
        return CommissioningStarted(structure: info.name, session: session.rawValue, payloads: payloads)
    }

    package func cancelCommissioning(in name: String, session: String) async throws -> String {
        let info = try await structures.structure(named: name)
        try await cancel(info.id, session: session)
        return info.name
    }
}
