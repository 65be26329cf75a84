package import TBRFoundation
package import DeviceModel
package import OpenThreadBR

/// The ePSKc session of one router as a sans-IO state machine (ARCHITECTURE "ePSKc lifecycle").
///
/// Its `mutating` handlers take an input (a command, a reading, the agent coming or going, a timer)
/// and the current instant, and return the ``EpskcDirective``s to carry out: read telemetry, publish an
/// event, wake at an instant. Every decision lives here: whether telemetry is worth reading (only
/// around a key: while one is active or is being started or stopped; never from an agent without the
/// telemetry API or off the bus), whether a
/// reading shows that the key ended, which reason (``EpskcReasonInference``), and when to look again
/// (a poll interval while a key is active, the deadline plus its grace). ``ManagedRouter`` performs the
/// directives and feeds the results back; tests drive the machine with explicit instants.
///
/// A session is `idle → open → ended(reason)`: the end is taken from whichever is noticed first (own
/// deactivate, telemetry, deadline, a new activation finding no key, the agent restarting, or the
/// `_meshcop-e._udp` service going away), and each session ends exactly once (the session is cleared
/// as its end event is made). A session opens when this service activates a key, or when the
/// `_meshcop-e._udp` service appears while none is open: a key someone else started, whose validity is
/// unknown (``serviceAppeared(_:now:)``).
package struct EpskcSessionMachine: Sendable {
    package typealias DeactivatedEvent = ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent
    package typealias ActivatedEvent = ThreadNetworkManagementTrait.EpskcModeActivatedEvent
    package typealias Detection = ThreadNetworkManagementTrait.EpskcEndDetection
    package typealias Instant = ContinuousClock.Instant

    package let deviceID: DeviceID
    package let timing: Timing
    private(set) var session: Session?
    // The state below is set by the handlers only; `telemetryAvailable`, `awaiting` and `command` are not
    // `private(set)` because the readings' handler (EpskcSessionMachine+Readings.swift) sets them too.
    /// Whether the agent has a telemetry API: nil until a read says; forgotten when the agent changes.
    package var telemetryAvailable: Bool?
    /// The unique bus name of the running agent instance; nil while it is off the bus.
    private(set) var agentInstance: String?
    /// What the telemetry read asked for last is for; nil when none is awaited.
    package var awaiting: AwaitedReading?
    /// When the last session ended if its key's `_meshcop-e._udp` service was never seen (to tell a late
    /// announcement of that key from a new key).
    private(set) var endedUnannounced: Instant?
    /// The command between its request and the agent's answer, with what it has learnt so far.
    package var command: Command?

    package init(deviceID: DeviceID, timing: Timing) {
        self.deviceID = deviceID
        self.timing = timing
    }

    /// Whether telemetry is worth reading: the agent is on the bus and not known to lack the API.
    package var readsTelemetry: Bool { agentInstance != nil && telemetryAvailable != false }

    // MARK: commands

    /// `activateEpskcMode` is about to call the agent: reads telemetry first (when worth it) for the new
    /// session's baseline, which also settles an open session whose key ended by itself.
    package mutating func activationRequested() -> EpskcCommandPlan {
        command = .activating(baseline: nil)
        guard readsTelemetry else { return EpskcCommandPlan(before: [schedule()], readingFirst: false) }
        awaiting = .activationBaseline
        return EpskcCommandPlan(before: [], readingFirst: true)
    }

    /// The agent refused the key (or could not be asked): nothing starts.
    package mutating func activationFailed() -> [EpskcDirective] {
        command = nil
        return [schedule()]
    }

    /// The agent granted a key: the session starts (published, journalled with its restore record),
    /// and polls begin. A session still open here ended unnoticed (the agent had no key): telemetry is
    /// read first when worth it, and it is settled before the new one starts.
    package mutating func activationSucceeded(_ grant: Grant) -> [EpskcDirective] {
        var baseline: BorderAgentCounters?
        if case .activating(let b)? = command { baseline = b }
        command = nil
        guard session != nil else { return start(grant, baseline: baseline) }
        if readsTelemetry { return awaitReading(.settling(grant)) }
        return settle(then: grant, reading: nil)
    }

    /// The activation just granted could not be recorded, and its key is being withdrawn from the agent:
    /// the session is dropped without an end event, since nobody heard of its start.
    package mutating func activationNotRecorded(_ id: EpskcSessionID) -> [EpskcDirective] {
        if session?.id == id { session = nil }
        return [schedule()]
    }

    /// `deactivateEpskcMode` is about to call the agent: reads telemetry first (when worth it), so a key
    /// that already ended by itself keeps the reason the router gives.
    package mutating func deactivationRequested(retainActiveSession: Bool) -> EpskcCommandPlan {
        command = .deactivating(retainActiveSession: retainActiveSession)
        guard session != nil, readsTelemetry else { return EpskcCommandPlan(before: [schedule()], readingFirst: false) }
        awaiting = .deactivationCheck
        return EpskcCommandPlan(before: [], readingFirst: true)
    }

    /// The agent refused to deactivate: the session stays as it was.
    package mutating func deactivationFailed() -> [EpskcDirective] {
        command = nil
        return [schedule()]
    }

    /// The agent stopped the key, replying at `now`: rule 1, `cancelled`. With `retainActiveSession` the
    /// agent keeps a key whose commissioner is connected, so telemetry decides (read at once, then polled);
    /// an agent without telemetry cannot say, and the call is taken as the end.
    package mutating func deactivationSucceeded(now: Instant) -> [EpskcDirective] {
        var retain = false
        if case .deactivating(let r)? = command { retain = r }
        command = nil
        guard session != nil else { return [schedule()] }
        if retain, readsTelemetry { return awaitReading(.retainCheck(repliedAt: now)) }
        return end(detectedBy: .deactivateCall, deactivatedByService: true, endedAt: now, now: now) + [schedule()]
    }

    /// Reopens a journalled session after a restart of the service, mapping its times from the wall
    /// clock onto the monotonic clock. It ends at once when another agent instance runs now (keys live
    /// in the agent's memory); otherwise telemetry is read at once (the agent keeps a completed journey
    /// until someone reads it) and the deadline applies. Restoring the open session again changes nothing.
    /// - Throws: ``OtherSessionOpen`` when another session is open.
    package mutating func restore(_ record: EpskcSessionRecord, now: Instant, wall: WallTime) throws(OtherSessionOpen)
        -> [EpskcDirective]
    {
        if let session {
            guard session.id == record.sessionID else { throw OtherSessionOpen(open: session.id) }
            return [schedule()]
        }
        session = Session(
            id: record.sessionID, activatedAt: now.advanced(by: record.activatedAt.duration(since: wall)),
            activatedWall: record.activatedAt, validSeconds: record.validDurationSeconds,
            baseline: record.telemetryBaseline.flatMap { try? BorderAgentCounters(serialized: $0) },
            agentInstance: record.agentInstance, nextPoll: now)
        if let recorded = record.agentInstance, let current = agentInstance, recorded != current {
            return end(detectedBy: .routerRestarted, endedAt: now, now: now) + [schedule()]
        }
        return look(now: now)
    }

    /// Something outside the agent's D-Bus API saw the key end at `at` (the `_meshcop-e._udp` service
    /// going away): telemetry is consulted first when worth it; otherwise rules 3 and 4 decide.
    package mutating func serviceWithdrawn(at: Instant, now: Instant) -> [EpskcDirective] {
        guard session != nil else { return [schedule()] }
        if readsTelemetry { return awaitReading(.serviceWithdrawn(at: at)) }
        return end(detectedBy: .serviceDiscovery, endedAt: min(at, now), now: now) + [schedule()]
    }

    /// Something outside the agent's D-Bus API saw a key become active at `key.now` (the
    /// `_meshcop-e._udp` service appearing). With a session open, or one being activated, it is that
    /// session's key. Otherwise someone else started it (otbr's REST API, `ot-ctl`, another controller):
    /// a session of unknown validity (`validSeconds` 0) opens for it and is journalled and published like
    /// one of ours, ending later with the reason inferred as usual. When telemetry is worth reading it is
    /// read first: for the session's baseline, and because counters that show no key active mean the
    /// announcement is late and its key already over (nothing opens). Without telemetry, an appearance
    /// within ``Timing/lateAnnouncement`` of the end of a session whose service was never seen is taken
    /// as that key announced late.
    package mutating func serviceAppeared(_ key: Grant, now: Instant) -> [EpskcDirective] {
        if session != nil {
            session?.serviceSeen = true
            return [schedule()]
        }
        guard command == nil else { return [schedule()] }
        if readsTelemetry { return awaitReading(.serviceAppeared(key)) }
        if let ended = endedUnannounced, key.now < ended.advanced(by: timing.lateAnnouncement) {
            endedUnannounced = nil
            return [schedule()]
        }
        return start(key, baseline: nil, serviceSeen: true)
    }

    // MARK: the agent

    /// The agent owns its bus name as `instance`. Another instance than before has to be asked again
    /// whether it has telemetry, and ends a session whose key the previous instance held.
    package mutating func agentAppeared(instance: String, now: Instant) -> [EpskcDirective] {
        if instance != agentInstance { telemetryAvailable = nil }
        agentInstance = instance
        if let recorded = session?.agentInstance, recorded != instance {
            return end(detectedBy: .routerRestarted, endedAt: now, now: now) + [schedule()]
        }
        return [schedule()]
    }

    /// The agent left the bus: its key is gone with it.
    package mutating func agentVanished(now: Instant) -> [EpskcDirective] {
        agentInstance = nil
        telemetryAvailable = nil
        return end(detectedBy: .routerRestarted, endedAt: now, now: now) + [schedule()]
    }

    // MARK: time

    /// The wake-up asked for came (or an earlier one): a telemetry poll when one is due (or the deadline
    /// and its grace passed: a last look), then the deadline rule.
    package mutating func timerFired(now: Instant) -> [EpskcDirective] {
        guard let session else { return [schedule()] }
        let lastLook = now >= session.deadline.advanced(by: timing.deadlineGrace)
        if readsTelemetry, now >= session.nextPoll || lastLook { return look(now: now) }
        return expireIfDue(now: now)
    }

    /// When the machine wants to look next: the next telemetry poll (only while a key is active, and
    /// only if telemetry is worth reading) or the deadline plus its grace; nothing while idle.
    package func schedule() -> EpskcDirective {
        guard let session else { return .cancelWake }
        let deadline = session.deadline.advanced(by: timing.deadlineGrace)
        guard readsTelemetry else { return .wake(at: deadline) }
        return .wake(at: min(session.nextPoll, deadline))
    }

    /// The open session as a journal record.
    package var record: EpskcSessionRecord? {
        guard let session else { return nil }
        return EpskcSessionRecord(
            deviceID: deviceID, sessionID: session.id, activatedAt: session.activatedWall,
            validDurationSeconds: session.validSeconds, agentInstance: session.agentInstance,
            telemetryBaseline: session.baseline?.serialized())
    }

    // MARK: internals (shared with EpskcSessionMachine+Readings.swift)

    /// Asks for a telemetry read whose reading is for `purpose`.
    private mutating func awaitReading(_ purpose: AwaitedReading) -> [EpskcDirective] {
        awaiting = purpose
        return [.readTelemetry]
    }

    /// Looks at the open session now: a telemetry poll when worth it (the next one a poll interval
    /// later), else the deadline rule.
    private mutating func look(now: Instant) -> [EpskcDirective] {
        guard readsTelemetry, session != nil else { return expireIfDue(now: now) }
        let next = now.advanced(by: timing.pollInterval)
        session?.nextPoll = next
        return awaitReading(.poll)
    }

    /// Once the deadline and its grace have passed (and a last telemetry read said nothing), the key
    /// ended at its deadline: rule 3. Otherwise the next wake-up.
    package mutating func expireIfDue(now: Instant) -> [EpskcDirective] {
        guard let session, now >= session.deadline.advanced(by: timing.deadlineGrace) else { return [schedule()] }
        return end(detectedBy: .deadline, endedAt: session.deadline, now: now) + [schedule()]
    }

    /// Opens the session `grant` describes.
    package mutating func start(_ grant: Grant, baseline: BorderAgentCounters?, serviceSeen: Bool = false) -> [EpskcDirective] {
        session = Session(
            id: grant.id, activatedAt: grant.now, activatedWall: grant.wall, validSeconds: grant.validSeconds,
            baseline: baseline, agentInstance: agentInstance, nextPoll: grant.now.advanced(by: timing.pollInterval),
            serviceSeen: serviceSeen)
        let event = ActivatedEvent(
            deviceID: deviceID, sessionID: grant.id, activatedAt: grant.wall, validDurationSeconds: grant.validSeconds)
        return [.publish(.activated(event), restoreRecord: record), schedule()]
    }

    /// Ends the open session, which the agent's new key shows had ended unnoticed, from `reading` (taken
    /// after the grant) or else by the rules of time; then opens the new one with `reading`'s counters
    /// as its baseline.
    package mutating func settle(then grant: Grant, reading: TelemetryResult?) -> [EpskcDirective] {
        var directives: [EpskcDirective] = []
        if let old = session {
            let journey = reading?.reading?.journeys.last
            let verdict = EpskcReasonInference.fromTelemetry(
                journey: journey, baseline: old.baseline, current: reading?.reading?.counters)
            directives += end(
                detectedBy: .newActivation, telemetry: verdict, endedAt: endTime(of: journey, in: old, now: grant.now),
                now: grant.now)
        }
        return directives + start(grant, baseline: reading?.reading?.counters)
    }

    /// Ends the open session (once), applying the rules in order.
    package mutating func end(
        detectedBy detection: Detection, deactivatedByService: Bool = false, telemetry: EpskcReasonInference.Verdict? = nil,
        endedAt: Instant, now: Instant
    ) -> [EpskcDirective] {
        guard let session else { return [] }
        self.session = nil
        endedUnannounced = session.serviceSeen ? nil : now
        var verdict = EpskcReasonInference.infer(
            deactivatedByService: deactivatedByService, telemetry: telemetry,
            endedAtOrAfterDeadline: endedAt >= session.deadline)
        // A key of unknown validity that ended before it must have cannot be said to have ended early.
        if !session.validityKnown, verdict.detail == .endedEarly { verdict.detail = nil }
        let event = DeactivatedEvent(
            deviceID: deviceID, sessionID: session.id, reason: verdict.reason, detail: verdict.detail,
            activatedAt: session.activatedWall, deactivatedAt: session.wall(max(endedAt, session.activatedAt)),
            detectedAt: session.wall(now), detectedBy: detection)
        return [.publish(.deactivated(event), restoreRecord: nil)]
    }

    /// When the key ended according to a completed journey: the session's start plus the journey's
    /// lifetime (the agent's millisecond clock), kept between the start and `now`; `now` without one.
    package func endTime(of journey: EpskcJourney?, in session: Session, now: Instant) -> Instant {
        guard let journey, let start = journey.activated, let stop = journey.deactivated else { return now }
        let lived = Duration.milliseconds(Int64(stop &- start))
        return min(now, session.activatedAt.advanced(by: lived))
    }
}
