import DeviceModel
import MeshCoP
import OpenThreadBR

/// `joinNetwork` and `leaveNetwork` (ARCHITECTURE "The trait model").
extension ManagedRouter {
    typealias JoinResponse = ThreadNetworkManagementTrait.JoinNetworkResponse

    /// Validates the dataset (a bad one changes nothing), reads the role and active dataset, then:
    /// already on that network → success without a change; attached elsewhere → the whole mesh moves with
    /// `AttachAllNodesTo` (the delay is reported) unless the request says this router only; otherwise
    /// `Join`, after `SetThreadEnabled(true)` when the agent says Thread is not enabled.
    func joinNetwork(_ request: ThreadNetworkManagementTrait.JoinNetworkRequest) async -> JoinResponse {
        let command = "JoinNetwork"
        let requested: OperationalDataset
        switch JoinPlan.validate(request.operationalDatasetTlvs) {
        case .failure(let refusal): return .failure(.invalidArgument, "\(command) on \(deviceID) refused: \(refusal.message)")
        case .success(let d): requested = d
        }
        let role: DeviceRole
        let current: OperationalDataset?
        do {
            role = try await agent.deviceRole()
            current = try await agent.activeDataset()
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
                let delay = try await agent.attachAllNodes(to: request.operationalDatasetTlvs)
                await refresh()
                return JoinResponse(status: .success, outcome: delay == .zero ? .migrated : .migrationScheduled, migrationDelay: delay)
            case .join:
                try await joinEnablingThread(request.operationalDatasetTlvs)
                await refresh()
                return JoinResponse(status: .success, outcome: .joined)
            }
        } catch {
            return .failure(error.networkStatus, error.homeError(command, on: deviceID).message)
        }
    }

    /// `Join`; if the agent answers `InvalidState` (its host "Thread enabled" state is off, as after a
    /// start), `SetThreadEnabled(true)` and `Join` again.
    private func joinEnablingThread(_ tlvs: [UInt8]) async throws(AgentError) {
        do {
            try await agent.join(tlvs)
        } catch where error.openThreadError == .invalidState {
            try await agent.setThreadEnabled(true)
            try await agent.join(tlvs)
        }
    }

    /// `LeaveNetwork`: the agent forgets its network and restarts; this returns when the new instance is
    /// on the bus and ready, and the router's state has been read from it.
    func leaveNetwork() async throws(HomeError) {
        try requireOnline("LeaveNetwork")
        do { try await agent.leaveNetwork(timeout: leaveTimeout) } catch {
            throw error.homeError("LeaveNetwork", on: deviceID)
        }
        // The registry may already have seen the new instance (and be reading it); either way, end the
        // old instance's ePSKc session and read the new instance before returning.
        if let owner = try? await agent.connection.nameOwner(of: agent.busName) {
            await agentAppeared(owner: owner)
            await refresh()
        }
    }
}
