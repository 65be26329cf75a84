package import DeviceModel
import MeshCoP
import OpenThreadBR

/// `joinNetwork` and `leaveNetwork` (ARCHITECTURE "The trait model").
extension ManagedRouter {
    package typealias JoinResponse = ThreadNetworkManagementTrait.JoinNetworkResponse

    /// Validates the dataset (a bad one changes nothing), reads the role and active dataset, then:
    /// already on that network → success without a change; attached elsewhere → the whole mesh moves with
    /// `AttachAllNodesTo` (the delay is reported) unless the request says this router only; otherwise the
    /// router joins (``RouterChannel/join(_:)``).
    package func joinNetwork(_ request: ThreadNetworkManagementTrait.JoinNetworkRequest) async -> JoinResponse {
        let command = "JoinNetwork"
        let requested: OperationalDataset
        switch JoinPlan.validate(request.operationalDatasetTlvs) {
        case .failure(let refusal): return .failure(.invalidArgument, "\(command) on \(deviceID) refused: \(refusal.message)")
        case .success(let d): requested = d
        }
        let role: DeviceRole
        let current: OperationalDataset?
        do {
            role = try await channel.deviceRole()
            current = try await channel.activeDataset()
        } catch {
            return .failure(error.networkStatus, error.homeError(command, on: deviceID).message)
        }
        let plan = JoinPlan.decide(requested: requested, scope: request.scope, attached: role.isAttached, current: current)
        logger.info("joining a network", [("router", deviceID.rawValue), ("plan", "\(plan)")])
        do {
            switch plan {
            case .alreadyJoined:
                return JoinResponse(status: .success, outcome: .alreadyJoined)
            case .migrateWholeNetwork:
                let delay = try await channel.attachAllNodes(
                    to: request.operationalDatasetTlvs, delay: .milliseconds(Int64(RESTTiming.migrationDelayMs)))
                await refresh()
                return JoinResponse(status: .success, outcome: delay == .zero ? .migrated : .migrationScheduled, migrationDelay: delay)
            case .join:
                try await channel.join(request.operationalDatasetTlvs)
                await refresh()
                return JoinResponse(status: .success, outcome: .joined)
            }
        } catch {
            return .failure(error.networkStatus, error.homeError(command, on: deviceID).message)
        }
    }

    /// Leaves the network: over D-Bus the agent forgets its network and restarts, and this returns when
    /// the new instance is on the bus and ready; over REST the agent's Thread data is erased. Either way
    /// the router's state has been read again when this returns.
    package func leaveNetwork() async throws(HomeError) {
        try requireOnline("LeaveNetwork")
        do { try await channel.leaveNetwork(timeout: leaveTimeout) } catch {
            throw error.homeError("LeaveNetwork", on: deviceID)
        }
        // The registry may already have seen the new instance (and be reading it); either way, end the
        // old instance's ePSKc session and read the new instance before returning.
        if let owner = await channel.currentInstance() {
            await agentAppeared(owner: owner)
            await refresh()
        }
    }
}
