import DeviceModel
import MeshCoP
import OpenThreadBR

/// The ePSKc commands and the session driver: the I/O around ``EpskcSessionMachine``.
extension ManagedRouter {
    typealias ActivateResponse = ThreadNetworkManagementTrait.ActivateEpskcModeResponse

    /// `activateEpskcMode`: the duration is checked before anything is sent; then, through the gate:
    /// telemetry is read (the baseline, and a check that an open session has not ended unnoticed), the
    /// agent is asked, and on success an open session that ended unnoticed is settled before the new one
    /// starts.
    func activateEpskcMode(_ request: ThreadNetworkManagementTrait.ActivateEpskcModeRequest) async -> ActivateResponse {
        let seconds: Int
        do { seconds = try request.validatedDurationSeconds() } catch {
            return .failure(.invalidArgument, "ActivateEpskcMode on \(deviceID) failed: \(error.message)")
        }
        return await serialized { await self.activateLocked(seconds: seconds) }
    }

    private func activateLocked(seconds: Int) async -> ActivateResponse {
        var reading: TelemetryResult?
        if machine.telemetryAvailable != false {
            let result = await readTelemetry()
            reading = result
            if let e = machine.telemetryRead(result, now: clock.now()) { await publish(.deactivated(e)) }
        }
        let settleAfterwards = machine.session != nil
        let key: EphemeralKey
        do {
            key = try await agent.activateEphemeralKeyMode(lifetime: .seconds(seconds))
        } catch {
            logger.info(
                "ePSKc activation refused", [("router", deviceID.rawValue), ("error", error.reason)])
            return .failure(error.activationStatus, error.homeError("ActivateEpskcMode", on: deviceID).message)
        }
        let now = clock.now()
        let wall = wallNow()
        if settleAfterwards {
            // The agent had no key although a session was open: read what its telemetry says now (the
            // old key's journey, counters against the old baseline) before settling it.
            reading = machine.telemetryAvailable == false ? nil : await readTelemetry()
        }
        let id = EpskcSessionID.random()
        await publish(machine.activated(id: id, validSeconds: seconds, reading: reading, agentInstance: agentInstance, now: now, wall: wall))
        wake.signal()
        return ActivateResponse(status: .success, epskc: key, validDurationSeconds: seconds, sessionID: id)
    }

    /// `deactivateEpskcMode`: an open session that already ended unnoticed is settled from telemetry
    /// first; then the agent stops the key and the session ends as `cancelled` (rule 1).
    ///
    /// With `retainActiveSession` the agent keeps a key whose commissioner is connected, so the end is
    /// taken from telemetry (read at once, then polled as usual); an agent without telemetry cannot say
    /// whether a commissioner was connected, and the session is taken as ended by the call (`cancelled`).
    func deactivateEpskcMode(retainActiveSession: Bool) async throws(HomeError) {
        let result: Result<Void, HomeError> = await serialized {
            await self.deactivateLocked(retainActiveSession: retainActiveSession)
        }
        try result.get()
    }

    private func deactivateLocked(retainActiveSession: Bool) async -> Result<Void, HomeError> {
        if machine.session != nil, machine.telemetryAvailable != false {
            if let e = machine.telemetryRead(await readTelemetry(), now: clock.now()) { await publish(.deactivated(e)) }
        }
        do {
            try await agent.deactivateEphemeralKeyMode(retainActiveSession: retainActiveSession)
        } catch {
            return .failure(error.homeError("DeactivateEpskcMode", on: deviceID))
        }
        if retainActiveSession, machine.session != nil, machine.telemetryAvailable != false {
            if let e = machine.telemetryRead(await readTelemetry(), now: clock.now()) { await publish(.deactivated(e)) }
            if machine.telemetryAvailable != false { return .success(()) }
        }
        if let e = machine.deactivated(now: clock.now()) { await publish(.deactivated(e)) }
        return .success(())
    }

    /// Recovers a journalled session (see ``BorderRouterService/restoreEpskcSession(_:)``) and settles it
    /// at once if it has ended meanwhile.
    func restore(_ record: EpskcSessionRecord) async throws(HomeError) {
        let result: Result<Void, HomeError> = await serialized { await self.restoreLocked(record) }
        try result.get()
    }

    private func restoreLocked(_ record: EpskcSessionRecord) async -> Result<Void, HomeError> {
        guard machine.restore(record, now: clock.now(), wall: wallNow()) else {
            return .failure(HomeError(.busy, "cannot restore ePSKc session \(record.sessionID) on \(deviceID): another session is open"))
        }
        logger.info("ephemeral-key session restored", [("router", deviceID.rawValue), ("session", record.sessionID.rawValue)])
        if let recorded = record.agentInstance, let current = agentInstance, recorded != current {
            if let e = machine.agentRestarted(now: clock.now()) { await publish(.deactivated(e)) }
            return .success(())
        }
        if agentInstance != nil {
            await tickLocked(forcePoll: true)
        }
        let open = machine.session != nil
        summaryCell.update { $0.epskcSessionOpen = open }
        wake.signal()
        return .success(())
    }

    /// The router's `_meshcop-e._udp` service went away at `at` (mDNS): the key ended. Telemetry is
    /// consulted first; otherwise the rules of time decide.
    func epskcServiceWithdrawn(at: ContinuousClock.Instant) async {
        await serialized {
            guard self.machine.session != nil else { return }
            if self.machine.telemetryAvailable != false,
                let e = self.machine.telemetryRead(await self.readTelemetry(), now: self.clock.now())
            {
                return await self.publish(.deactivated(e))
            }
            if let e = self.machine.endNoticed(by: .serviceDiscovery, endedAt: at, now: self.clock.now()) {
                await self.publish(.deactivated(e))
            }
        }
    }

    /// The open session, as a journal record.
    func openSession() -> EpskcSessionRecord? { machine.record }

    // MARK: the driver

    /// Wakes for the session's timers (telemetry polls and the deadline) while a key is active, and
    /// sleeps without polling while none is, until the task is cancelled.
    func driveSessions() async {
        while !Task.isCancelled {
            await waitForWake(until: machine.nextWakeup())
            if Task.isCancelled { return }
            await serialized { await self.tickLocked(forcePoll: false) }
        }
    }

    /// One look at the open session: a telemetry poll when due, then the deadline.
    private func tickLocked(forcePoll: Bool) async {
        let now = clock.now()
        guard machine.session != nil else { return }
        if forcePoll || machine.pollDue(now: now) {
            machine.polled(now: now)
            if machine.telemetryAvailable != false, agentInstance != nil {
                if let e = machine.telemetryRead(await readTelemetry(), now: clock.now()) {
                    return await publish(.deactivated(e))
                }
            }
        }
        if let e = machine.timePassed(now: clock.now()) { await publish(.deactivated(e)) }
    }

    /// Returns at `until` (never, when nil), when ``wake`` is signalled, or when cancelled.
    private nonisolated func waitForWake(until: ContinuousClock.Instant?) async {
        let clock = self.clock
        let wake = self.wake
        await withTaskGroup(of: Void.self) { group in
            if let until { group.addTask { try? await clock.sleep(until: until) } }
            group.addTask { await wake.wait() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Reads `TelemetryData` (which consumes the agent's completed journeys: only this router's driver
    /// reads it, and only while a key is active or one is being activated).
    func readTelemetry() async -> TelemetryResult {
        do {
            let t = try await agent.read(.borderAgentTelemetry)
            return .read(TelemetryReading(counters: t.counters, journeys: t.journeys))
        } catch where error.openThreadError == .notImplemented || error.openThreadError == .notFound
            || error.cause == .notSupported
        {
            return .unavailable
        } catch {
            logger.debug("could not read TelemetryData", [("router", deviceID.rawValue), ("error", error.description)])
            return .failed
        }
    }
}
