import BorderRouterService
import DBus
import MatterOnboarding
import MeshCoP
import TBRDBusAPI
import TBRFoundation
import TBRCore

// Matter commissioning on io.tbrd.Structure1: the methods, the CommissioningProgress signal and the
// MatterNodes property. Payloads (they hold the setup passcode) are handed to the service and never
// logged; the codes of a shared node go to the caller only.

extension DBusAdapter {
    typealias StructureAPI = TBRDBusAPI.Structure

    /// The methods of `io.tbrd.Structure1` for structure `id`.
    nonisolated func matterMethods(_ id: StructureID) -> [Method] {
        [
            method(StructureAPI.prepareMatterCommissioning) { [self] call in
                try await self.prepareCommissioning(id, owner: call.sender).arguments
            },
            method(StructureAPI.commission) { [self] call in
                let session: String = try call.argument(0)
                let payload: String = try call.argument(1)
                let options: [String: DBusValue] = try call.argument(2)
                return [.string(try await self.commission(id, session: session, payload: payload, options: options))]
            },
            method(StructureAPI.completeMatterCommissioning) { [self] call in
                [try await self.completeCommissioning(id, session: try call.argument(0)).dbusValue]
            },
            method(StructureAPI.cancelMatterCommissioning) { [self] call in
                try await self.cancelCommissioning(id, session: try call.argument(0))
                return []
            },
            method(StructureAPI.shareMatterNode) { [self] call in
                try await self.share(id, node: try call.argument(0), seconds: try call.argument(1)).arguments
            },
        ] + matterNodeMethods(id)
    }

    /// Opens a session owned by the caller `owner` (its unique name): when the owner leaves the bus before
    /// completing or cancelling it, tbrd cancels it (``followCommissioningOwners()``).
    private func prepareCommissioning(_ id: StructureID, owner: String) async throws -> PrepareCommissioningReply {
        let grant = try await matter.prepare(id)
        await own(SessionKey(structure: id, session: grant.session), by: owner)
        return PrepareCommissioningReply(session: grant.session.rawValue, expiresAt: Self.milliseconds(grant.expiresAt))
    }

    private func commission(_ id: StructureID, session: String, payload: String, options: [String: DBusValue]) async throws -> String {
        typealias Option = StructureAPI.CommissionOption
        var parsed = CommissioningOptions()
        for (key, value) in options {
            switch key {
            case Option.network:
                guard case .string(let text) = value, text.count == 16, let xpan = ExtendedPANID(text) else {
                    throw DaemonError.invalid("the option network must be an extended PAN ID (16 hex digits)")
                }
                parsed.network = xpan
            case Option.onNetwork:
                guard case .bool(let b) = value else { throw DaemonError.invalid("the option onNetwork must be a boolean") }
                parsed.onNetwork = b
            case Option.name:
                guard case .string(let text) = value else { throw DaemonError.invalid("the option name must be a string") }
                parsed.name = text
            case Option.room:
                guard case .string(let text) = value else { throw DaemonError.invalid("the option room must be a string") }
                parsed.room = text
            default:
                throw DaemonError.invalid("unknown Commission option \(Quoted(key)) (known: \(Option.all.joined(separator: ", ")))")
            }
        }
        return try await matter.commission(id, session: CommissioningSessionID(rawValue: session), payload: payload, options: parsed)
    }

    private func completeCommissioning(_ id: StructureID, session: String) async throws -> [CommissioningOutcomeRow] {
        let outcomes = try await matter.complete(id, session: CommissioningSessionID(rawValue: session))
        disown(SessionKey(structure: id, session: CommissioningSessionID(rawValue: session)))
        return outcomes.map {
            CommissioningOutcomeRow(
                payloadId: $0.payloadID, outcome: $0.isComplete ? "complete" : "failed", nodeId: $0.nodeID?.rawValue ?? 0, error: $0.error ?? "")
        }
    }

    /// `CancelMatterCommissioning`: the session ends and its owner is forgotten.
    private func cancelCommissioning(_ id: StructureID, session: String) async throws {
        try await matter.cancel(id, session: session)
        disown(SessionKey(structure: id, session: CommissioningSessionID(rawValue: session)))
    }

    private func share(_ id: StructureID, node: UInt64, seconds: UInt16) async throws -> ShareNodeReply {
        let codes = try await matter.share(id, node: node, seconds: seconds)
        return ShareNodeReply(manualCode: codes.manualCode, qrCode: codes.qrCode)
    }

    /// Signals every commissioning stage from its structure's object, and `MatterNodes` when a node
    /// was recorded.
    func forwardCommissioningProgress() async {
        for await progress in service.commissioningProgress(bufferLimit: 4096) {
            typealias Key = StructureAPI.ProgressDetail
            var detail: [String: DBusValue] = [Key.time: .int64(Self.milliseconds(progress.time))]
            if let node = progress.nodeID { detail[Key.nodeId] = .uint64(node.rawValue) }
            if let vendor = progress.vendorID { detail[Key.vendorId] = .uint16(vendor) }
            if let product = progress.productID { detail[Key.productId] = .uint16(product) }
            if let xpan = progress.extPanID { detail[Key.extPanId] = .string(xpan.description) }
            if let error = progress.error { detail[Key.error] = .string(error) }
            if let failed = progress.failedStage { detail[Key.failedStage] = .string(failed.rawValue) }
            if let name = progress.name { detail[Key.name] = .string(name) }
            if let room = progress.room { detail[Key.room] = .string(room) }
            if let warning = progress.warning { detail[Key.warning] = .string(warning) }
            let signal = CommissioningProgressSignal(
                session: progress.session.rawValue, payloadId: progress.payloadID, stage: progress.stage.rawValue, detail: detail)
            do {
                try connection.emit(
                    path: Self.structurePath(progress.structure), interface: StructureAPI.interface,
                    member: StructureAPI.commissioningProgress.name, arguments: signal.arguments)
            } catch {
                logger.warning("could not signal a commissioning stage", [("session", progress.session.rawValue), ("error", "\(error)")])
            }
            if progress.stage == .complete { structureService.signals.publish(.matterNodesChanged(progress.structure)) }
        }
    }
}
