import BorderRouterService
import MatterOnboarding
import MeshCoP
import TBRDBusAPI
import TBRDocuments
import TBRFoundation
import TBRCore

// The core's calls about structures, their policy and their Matter nodes (TBRCore's StructureCore and
// MatterCore), answered with the documents tbrctl prints.

extension DaemonRuntime: StructureCore, MatterCore {
    /// Every structure as `tbrctl --json structure list` shows it, sorted by name.
    func structureViews() async throws -> [StructureView] {
        var views: [StructureView] = []
        for info in try await allStructures() { views.append(try await structureView(info)) }
        return views.sorted { $0.name < $1.name }
    }

    func structureView(_ name: String) async throws -> StructureView { try await structureView(try await structure(named: name)) }

    /// Structure `info` as `tbrctl --json structure show` shows it.
    func structureView(_ info: StructureInfo) async throws -> StructureView {
        let settings = try await structures.settings(of: info.id)
        return StructureView(
            name: info.name, routers: info.deviceIDs.map(\.rawValue).sorted(),
            settings: .init(
                internetAccessOption: Self.busName(settings.internetAccessOption),
                defaultThreadNetworkId: settings.defaultThreadNetworkId?.description),
            policy: try await policyStatus(info.id))
    }

    /// Creates structure `name`, as `tbrctl --json structure create` answers.
    func createStructure(named name: String) async throws -> StructureView {
        _ = try await createStructure(name)
        return try await structureView(try await structure(named: name))
    }

    func changeRouters(of name: String, router: String, add: Bool) async throws -> StructureView {
        if add { try await addBorderRouter(name, router) } else { try await removeBorderRouter(name, router) }
        return try await structureView(try await structure(named: name))
    }

    func rooms(of name: String, adding: String?, removing: String?) async throws -> [String] {
        let id = try await structure(named: name).id
        if let adding { try await changeRooms(id) { try await $0.addRoom(adding, to: id) } }
        if let removing { try await changeRooms(id) { try await $0.removeRoom(removing, from: id) } }
        return try await roomNames(id)
    }

    /// The network directory of structure `name`, as `tbrctl --json network list --structure` shows it.
    func networks(of name: String) async throws -> [NetworkEntry] {
        try await networkEntries(try await structure(named: name).id)
    }

    func policy(of name: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        return try await policyView(of: info, statuses: try await policyStatus(info.id))
    }

    /// The policy document of structure `info` with its routers' `statuses`.
    func policyView(of info: StructureInfo, statuses: [PolicyRouterView]) async throws -> PolicyView {
        let settings = try await structures.settings(of: info.id)
        return PolicyView(structure: info.name, internetAccessOption: Self.busName(settings.internetAccessOption), routers: statuses)
    }

    /// Sets the internet-access option of structure `name` and answers once the statuses are about it,
    /// as writing `InternetAccessOption` does.
    func setPolicy(of name: String, option text: String) async throws -> PolicyView {
        let info = try await structure(named: name)
        guard let option = Self.option(busName: text) else {
            throw DaemonError.invalid(
                "\(Quoted(text)) is not an internet-access option (\(TBRDBusAPI.Structure.internetAccessOptions.joined(separator: ", ")))")
        }
        try await update(info.id, reapplying: true) { $0.internetAccessOption = option }
        return try await policy(of: info.name)
    }

    /// The Matter nodes of structure `name`, as `tbrctl --json matter nodes --structure` shows them.
    func matterNodes(of name: String) async throws -> [MatterNodeView] {
        let info = try await structure(named: name)
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
        let info = try await structure(named: name)
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
        let info = try await structure(named: name)
        try await cancelCommissioning(info.id, session: session)
        return info.name
    }
}
