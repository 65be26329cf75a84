import DeviceModel
import OpenThreadBR

/// The ePSKc session of one router as a sans-IO state machine (ARCHITECTURE "ePSKc lifecycle").
///
/// Handlers are `mutating` and return the events to publish; an actor (`ManagedRouter`) does the I/O
/// (agent calls, telemetry reads), feeds the results in, and publishes what comes out. Time is passed
/// in, so tests drive it with a manual clock. A session is `idle → open → ended(reason)`: the end is
/// taken from whichever is noticed first (own deactivate, telemetry, deadline, a new activation finding
/// no key, the agent restarting, or the `_meshcop-e._udp` service going away), the reason is inferred by
/// ``EpskcReasonInference``, and each session ends exactly once (the session is cleared as its end
/// event is made).
struct EpskcSessionMachine: Sendable {
    typealias DeactivatedEvent = ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent
    typealias ActivatedEvent = ThreadNetworkManagementTrait.EpskcModeActivatedEvent
    typealias Detection = ThreadNetworkManagementTrait.EpskcEndDetection

    /// How often telemetry is read while a key is active, and how long after the deadline the
    /// deadline timer waits for the router's own timeout to show in telemetry.
    struct Timing: Hashable, Sendable {
        var pollInterval: Duration
        var deadlineGrace: Duration
    }

    /// The open session.
    struct Session: Hashable, Sendable {
        var id: EpskcSessionID
        var activatedAt: ContinuousClock.Instant
        var activatedWall: WallTime
        var validSeconds: Int
        var baseline: BorderAgentCounters?
        var agentInstance: String?
        var nextPoll: ContinuousClock.Instant

        var deadline: ContinuousClock.Instant { activatedAt.advanced(by: .seconds(validSeconds)) }

        /// The wall time of monotonic instant `instant` of this session.
        func wall(_ instant: ContinuousClock.Instant) -> WallTime { activatedWall.advanced(by: instant - activatedAt) }
    }

    let deviceID: DeviceID
    let timing: Timing
    private(set) var session: Session?
    /// Whether the agent has a telemetry API: nil until a read says.
    private(set) var telemetryAvailable: Bool?

    init(deviceID: DeviceID, timing: Timing) {
        self.deviceID = deviceID
        self.timing = timing
    }

    // MARK: inputs

    /// A telemetry read finished. Learns whether telemetry exists; with a session open, ends it if the
    /// reading shows the key ended (a completed journey, or a counter that moves when a key ends).
    mutating func telemetryRead(_ result: TelemetryResult, now: ContinuousClock.Instant) -> DeactivatedEvent? {
        switch result {
        case .unavailable:
            telemetryAvailable = false
            return nil
        case .failed:
            return nil
        case .read(let reading):
            telemetryAvailable = true
            guard let session else { return nil }
            let journey = reading.journeys.last
            var ended = journey != nil
            if let baseline = session.baseline, let current = reading.counters {
                ended = ended || current.wasReset(since: baseline) || current.keyEnded(since: baseline)
            }
            guard ended else { return nil }
            let verdict = EpskcReasonInference.fromTelemetry(
                journey: journey, baseline: session.baseline, current: reading.counters)
            return end(detectedBy: .telemetry, telemetry: verdict, endedAt: endTime(of: journey, in: session, now: now), now: now)
        }
    }

    /// The agent granted a key. A session still open here ended unnoticed (the agent had no key): it is
    /// settled first, from `reading` (telemetry read after the activation) or else by the rules of time.
    /// - Returns: the old session's end (if any), then the new session's start.
    mutating func activated(
        id: EpskcSessionID, validSeconds: Int, reading: TelemetryResult?, agentInstance: String?,
        now: ContinuousClock.Instant, wall: WallTime
    ) -> [EpskcEvent] {
        var events: [EpskcEvent] = []
        if let old = session {
            let journey = reading?.reading?.journeys.last
            let verdict = EpskcReasonInference.fromTelemetry(
                journey: journey, baseline: old.baseline, current: reading?.reading?.counters)
            if let e = end(detectedBy: .newActivation, telemetry: verdict, endedAt: endTime(of: journey, in: old, now: now), now: now) {
                events.append(.deactivated(e))
            }
        }
        if case .unavailable? = reading { telemetryAvailable = false }
        if case .read? = reading { telemetryAvailable = true }
        let new = Session(
            id: id, activatedAt: now, activatedWall: wall, validSeconds: validSeconds,
            baseline: reading?.reading?.counters, agentInstance: agentInstance, nextPoll: now.advanced(by: timing.pollInterval))
        session = new
        events.append(
            .activated(ActivatedEvent(deviceID: deviceID, sessionID: id, activatedAt: wall, validDurationSeconds: validSeconds)))
        return events
    }

    /// Our own `DeactivateEphemeralKeyMode` succeeded: rule 1.
    mutating func deactivated(now: ContinuousClock.Instant) -> DeactivatedEvent? {
        end(detectedBy: .deactivateCall, deactivatedByService: true, endedAt: now, now: now)
    }

    /// The agent instance that held the key left the bus or was replaced: the key is gone.
    mutating func agentRestarted(now: ContinuousClock.Instant) -> DeactivatedEvent? {
        telemetryAvailable = nil
        return end(detectedBy: .routerRestarted, endedAt: now, now: now)
    }

    /// Something outside the agent's D-Bus API saw the key end at `endedAt` (the `_meshcop-e._udp`
    /// service going away): rules 3 and 4 decide, telemetry having been consulted first.
    mutating func endNoticed(by detection: Detection, endedAt: ContinuousClock.Instant, now: ContinuousClock.Instant)
        -> DeactivatedEvent?
    {
        end(detectedBy: detection, endedAt: min(endedAt, now), now: now)
    }

    /// Time passed: once the deadline and its grace have passed (and a last telemetry read said nothing),
    /// the key has ended at its deadline: rule 3.
    mutating func timePassed(now: ContinuousClock.Instant) -> DeactivatedEvent? {
        guard let session, now >= session.deadline.advanced(by: timing.deadlineGrace) else { return nil }
        return end(detectedBy: .deadline, endedAt: session.deadline, now: now)
    }

    /// Reopens a journalled session after a restart of the service. The session's times are mapped
    /// from the wall clock onto the monotonic clock.
    /// - Returns: false when another session is open.
    mutating func restore(_ record: EpskcSessionRecord, now: ContinuousClock.Instant, wall: WallTime) -> Bool {
        guard session == nil else { return session?.id == record.sessionID }
        let activatedAt = now.advanced(by: record.activatedAt.duration(since: wall))
        let baseline = record.telemetryBaseline.flatMap { try? BorderAgentCounters(serialized: $0) }
        session = Session(
            id: record.sessionID, activatedAt: activatedAt, activatedWall: record.activatedAt,
            validSeconds: record.validDurationSeconds, baseline: baseline, agentInstance: record.agentInstance, nextPoll: now)
        return true
    }

    /// The agent changed (restarted or replaced): what was learnt about its build must be learnt again.
    mutating func forgetTelemetryAvailability() { telemetryAvailable = nil }

    // MARK: timers

    /// When the driver must wake next: the next telemetry poll (only while a key is active, and only if
    /// the agent has telemetry) or the deadline plus its grace; nil while idle (no polling at all).
    func nextWakeup() -> ContinuousClock.Instant? {
        guard let session else { return nil }
        let deadline = session.deadline.advanced(by: timing.deadlineGrace)
        guard telemetryAvailable != false else { return deadline }
        return min(session.nextPoll, deadline)
    }

    /// Whether telemetry should be read now: a poll is due, or the deadline has passed (a last look).
    func pollDue(now: ContinuousClock.Instant) -> Bool {
        guard let session, telemetryAvailable != false else { return false }
        return now >= session.nextPoll || now >= session.deadline.advanced(by: timing.deadlineGrace)
    }

    /// A poll was made at `now`; the next one is due a poll interval later.
    mutating func polled(now: ContinuousClock.Instant) {
        let next = now.advanced(by: timing.pollInterval)
        session?.nextPoll = next
    }

    /// The open session as a journal record.
    var record: EpskcSessionRecord? {
        guard let session else { return nil }
        return EpskcSessionRecord(
            deviceID: deviceID, sessionID: session.id, activatedAt: session.activatedWall,
            validDurationSeconds: session.validSeconds, agentInstance: session.agentInstance,
            telemetryBaseline: session.baseline?.serialized())
    }

    // MARK: ending

    /// Ends the open session (once), applying the rules in order.
    private mutating func end(
        detectedBy detection: Detection, deactivatedByService: Bool = false, telemetry: EpskcReasonInference.Verdict? = nil,
        endedAt: ContinuousClock.Instant, now: ContinuousClock.Instant
    ) -> DeactivatedEvent? {
        guard let session else { return nil }
        self.session = nil
        let verdict = EpskcReasonInference.infer(
            deactivatedByService: deactivatedByService, telemetry: telemetry,
            endedAtOrAfterDeadline: endedAt >= session.deadline)
        return DeactivatedEvent(
            deviceID: deviceID, sessionID: session.id, reason: verdict.reason, detail: verdict.detail,
            activatedAt: session.activatedWall, deactivatedAt: session.wall(max(endedAt, session.activatedAt)),
            detectedAt: session.wall(now), detectedBy: detection)
    }

    /// When the key ended according to a completed journey: the session's start plus the journey's
    /// lifetime (the agent's millisecond clock), kept between the start and `now`; `now` without one.
    private func endTime(of journey: EpskcJourney?, in session: Session, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard let journey, let start = journey.activated, let stop = journey.deactivated else { return now }
        let lived = Duration.milliseconds(Int64(stop &- start))
        return min(now, session.activatedAt.advanced(by: lived))
    }
}
