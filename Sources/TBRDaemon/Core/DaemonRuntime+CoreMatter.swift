import BorderRouterService
import MatterOnboarding
import MeshCoP
import TBRDBusAPI
import TBRDocuments
import TBRFoundation
import TBRCore

// The core's calls about Matter nodes and commissioning (TBRCore's MatterCore), answered with the
// documents tbrctl prints.

extension DaemonRuntime: MatterCore {
    /// The Matter nodes of structure `name`, as `tbrctl --json matter nodes --structure` shows them.
    func matterNodes(of name: String) async throws -> [MatterNodeView] {
        let info = try await structureService.structure(named: name)
        // Times to the millisecond, as every adapter carries them (D-Bus's `x` of milliseconds).
        return try await service.matterNodes.nodes(in: info.id).map {
            MatterNodeView(
                structure: info.name, nodeId: $0.nodeID.rawValue, vendorId: $0.vendorID == 0 ? nil : $0.vendorID,
                productId: $0.productID == 0 ? nil : $0.productID, commissionedAt: WallTime(milliseconds: Self.milliseconds($0.commissionedAt)),
                name: $0.name?.nilIfEmpty, room: $0.room?.nilIfEmpty)
        }
    }

    /// The most codes one order may queue.
    static let commissioningBatchLimit = 32

    /// Commissions the devices of `order` into structure `name`, one at a time, as `tbrctl matter
    /// commission` does: every code and the name are checked before anything is queued; then a session
    /// is opened, the codes queued, and the session completed in the background (``inBackground(_:)``,
    /// so that tbrd stopping cancels it). The answer comes once the codes are queued.
    func startCommissioning(into name: String, _ order: CommissioningOrder) async throws -> CommissioningStarted {
        try requireCommissioner()
        guard !order.codes.isEmpty, order.codes.count <= Self.commissioningBatchLimit else {
            throw DaemonError.invalid("codes holds 1 to \(Self.commissioningBatchLimit) QR codes (MT:…) or manual pairing codes")
        }
        for (i, code) in order.codes.enumerated() {
            do { _ = try SetupPayload(parsing: code) } catch {
                throw DaemonError.invalid("code \(i + 1) is not a valid onboarding payload: \(error.description); nothing was queued")
            }
        }
        var options = CommissioningOptions(onNetwork: order.onNetwork, name: order.name?.nilIfEmpty, room: order.room?.nilIfEmpty)
        if let text = order.network {
            guard text.count == 16, let xpan = ExtendedPANID(text) else { throw DaemonError.invalid("network is an extended PAN ID (16 hex digits)") }
            options.network = xpan
        }
        if let nodeName = options.name {
            guard order.codes.count == 1 else { throw DaemonError.invalid("name names one node: give it with one code only") }
            if let problem = NameRules.problem(with: nodeName, maximumBytes: TBRDBusAPI.Structure.maximumNodeNameBytes) {
                throw DaemonError.invalid("\(Quoted(nodeName)) cannot name a Matter node: \(problem); nothing was queued")
            }
        }
        let info = try await structureService.structure(named: name)
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

    func cancelCommissioning(in name: String, session: String) async throws -> String {
        let info = try await structureService.structure(named: name)
        try await cancelCommissioning(info.id, session: session)
        return info.name
    }
}
