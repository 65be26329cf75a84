package import DeviceModel
import MeshCoP
import OpenThreadBR

/// The ePSKc commands and the session's timer: the I/O around ``EpskcSessionMachine``, whose directives
/// this carries out.
extension ManagedRouter {
    package typealias ActivateResponse = ThreadNetworkManagementTrait.ActivateEpskcModeResponse

    /// `activateEpskcMode`: the duration is checked before anything is sent; then, through the gate, the
    /// machine is told before and after the agent is asked (it may read telemetry for the baseline and to
    /// settle an open session whose key ended unnoticed), and the agent's answer becomes the response.
    package func activateEpskcMode(_ request: ThreadNetworkManagementTrait.ActivateEpskcModeRequest) async -> ActivateResponse {
        let seconds: Int
        do { seconds = try request.validatedDurationSeconds() } catch {
            return .failure(.invalidArgument, "ActivateEpskcMode on \(deviceID) failed: \(error.message)")
        }
        return await serialized { await self.activateLocked(seconds: seconds) }
    }

    private func activateLocked(seconds: Int) async -> ActivateResponse {
        let plan = machine.activationRequested()
        await perform(plan.before)
        // A baseline read and the activation leave together; the agent answers the read first.
        let (read, activation) = await channel.activateEpskc(lifetime: .seconds(seconds), readingFirst: plan.readingFirst)
        if let read { await perform(machine.telemetryRead(read, now: clock.now())) }
        let key: EphemeralKey
        do {
            key = try activation.get()
        } catch {
            logger.info("ePSKc activation refused", [("router", deviceID.rawValue), ("error", error.reason)])
            await perform(machine.activationFailed())
            return .failure(error.activationStatus, error.homeError("ActivateEpskcMode", on: deviceID).message)
        }
        let id = EpskcSessionID.random()
        unrecordedActivation = nil
        await perform(machine.activationSucceeded(.init(id: id, validSeconds: seconds, now: clock.now(), wall: wallNow())))
        if let unrecorded = unrecordedActivation, unrecorded.id == id {
            // Journal before signal: a key nobody could be told about must not stay usable.
            unrecordedActivation = nil
            return await withdraw(id, because: unrecorded.why)
        }
        return ActivateResponse(status: .success, epskc: key, validDurationSeconds: seconds, sessionID: id)
    }

    /// Stops the key of session `id`, whose start could not be recorded, and says why to the caller.
    private func withdraw(_ id: EpskcSessionID, because why: String) async -> ActivateResponse {
        var withdrawn = "it was withdrawn"
        if case .failure(let error) = await channel.deactivateEpskc(retainActiveSession: false, readingFirst: false).1 {
            withdrawn = "withdrawing it failed too (\(error.reason)); it ends by itself when it expires"
            logger.error("could not withdraw an unrecorded ephemeral key", [("router", deviceID.rawValue), ("error", error.reason)])
        }
        await perform(machine.activationNotRecorded(id))
        return .failure(
            .failed,
            "ActivateEpskcMode on \(deviceID) failed: the key could not be recorded in the ePSKc journal (\(why)), so \(withdrawn)")
    }

    /// `deactivateEpskcMode`: the agent stops the key and the session ends as `cancelled` (rule 1); the
    /// machine decides around the call whether telemetry is read first (a key that already ended keeps
    /// its own reason) and, with `retainActiveSession`, whether the agent kept the key for a connected
    /// commissioner (the session then stays open and ends later with the reason the router gives).
    package func deactivateEpskcMode(retainActiveSession: Bool) async throws(HomeError) {
        let result: Result<Void, HomeError> = await serialized {
            await self.deactivateLocked(retainActiveSession: retainActiveSession)
        }
        try result.get()
    }

    private func deactivateLocked(retainActiveSession: Bool) async -> Result<Void, HomeError> {
        let plan = machine.deactivationRequested(retainActiveSession: retainActiveSession)
        await perform(plan.before)
        // As for activation: the check and the call in one round trip, the read answered first.
        let (read, deactivation) = await channel.deactivateEpskc(retainActiveSession: retainActiveSession, readingFirst: plan.readingFirst)
        if let read { await perform(machine.telemetryRead(read, now: clock.now())) }
        do {
            try deactivation.get()
        } catch {
            await perform(machine.deactivationFailed())
            return .failure(error.homeError("DeactivateEpskcMode", on: deviceID))
        }
        await perform(machine.deactivationSucceeded(now: clock.now()))
        return .success(())
    }

    /// Recovers a journalled session (see ``BorderRouterService/restoreEpskcSession(_:)``); the machine
    /// settles it at once if it has ended meanwhile.
    package func restore(_ record: EpskcSessionRecord) async throws(HomeError) {
        let result: Result<Void, HomeError> = await serialized { await self.restoreLocked(record) }
        try result.get()
    }

    private func restoreLocked(_ record: EpskcSessionRecord) async -> Result<Void, HomeError> {
        let directives: [EpskcDirective]
        do {
            directives = try machine.restore(record, now: clock.now(), wall: wallNow())
        } catch {
            return .failure(HomeError(.busy, "cannot restore ePSKc session \(record.sessionID) on \(deviceID): another session is open"))
        }
        logger.info("ephemeral-key session restored", [("router", deviceID.rawValue), ("session", record.sessionID.rawValue)])
        await perform(directives)
        return .success(())
    }

    /// The router's `_meshcop-e._udp` service went away at `at` (mDNS): the key ended, unless the agent
    /// says for sure that a key is active (the withdrawal of a key that ended before this one, arriving
    /// late).
    package func epskcServiceWithdrawn(at: ContinuousClock.Instant) async {
        await serialized {
            if await self.channel.keyIsActive() == true {
                self.logger.debug("a late _meshcop-e._udp withdrawal: the agent still has a key", [("router", self.deviceID.rawValue)])
                return
            }
            await self.perform(self.machine.serviceWithdrawn(at: at, now: self.clock.now()))
        }
    }

    /// The router's `_meshcop-e._udp` service appeared at `at` (mDNS): a key is active. If no session is
    /// open, someone else started it, and a session of unknown validity opens for it.
    package func epskcServiceAppeared(at: ContinuousClock.Instant) async {
        await serialized {
            let now = self.clock.now()
            let key = EpskcSessionMachine.Grant(
                id: .random(), validSeconds: 0, now: min(at, now), wall: self.wallNow().advanced(by: min(at, now) - now))
            await self.perform(self.machine.serviceAppeared(key, now: now))
        }
    }

    /// The open session, as a journal record.
    package func openSession() -> EpskcSessionRecord? { machine.record }

    // MARK: carrying out directives

    /// Carries out the machine's directives in order: a telemetry read is fed back at once and its
    /// directives are carried out before the rest. Runs inside the gate.
    package func perform(_ directives: [EpskcDirective]) async {
        for directive in directives {
            switch directive {
            case .readTelemetry:
                let result = await channel.readEpskcEvidence()
                await perform(machine.telemetryRead(result, now: clock.now()))
            case .publish(let event, let record):
                await publish(event, restoreRecord: record)
            case .wake(let instant):
                sessionAlarm.set(instant)
            case .cancelWake:
                sessionAlarm.cancel()
            }
        }
        let open = machine.session != nil
        summaryCell.update { $0.epskcSessionOpen = open }
    }

    /// The machine's timer, through the gate (``sessionAlarm`` calls it when the instant the machine
    /// asked for has passed).
    package func sessionTimerFired() async {
        await serialized { await self.perform(self.machine.timerFired(now: self.clock.now())) }
    }
}
