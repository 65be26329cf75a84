import DeviceModel
import OpenThreadBR

/// Telemetry readings: what the machine learns from a `TelemetryData` read it asked for.
extension EpskcSessionMachine {
    /// A telemetry read asked for by ``EpskcDirective/readTelemetry`` finished. Learns whether the agent
    /// has telemetry (`unavailable`: never read again from this instance; `failed`: nothing learnt),
    /// then uses the reading for what it was asked for. A reading that shows the key ended (a completed
    /// journey, a counter that moves when a key ends, or counters reset by a restart) ends the session,
    /// detected by `telemetry`; otherwise:
    /// - a poll: the deadline rule;
    /// - before an activation: its counters become the new session's baseline;
    /// - after a grant that found a session open: that session is settled (`newActivation`) by what the
    ///   reading says, else by the rules of time, and the new one starts;
    /// - after a retaining deactivate: the agent kept the key (a commissioner is connected), so the
    ///   session stays open and polls go on; without telemetry the call is taken as the end (`cancelled`);
    /// - after the `_meshcop-e._udp` service went away: rules 3 and 4 at the moment it went.
    package mutating func telemetryRead(_ result: TelemetryResult, now: Instant) -> [EpskcDirective] {
        switch result {
        case .read: telemetryAvailable = true
        case .unavailable: telemetryAvailable = false
        case .failed: break
        }
        let purpose = awaiting ?? .poll
        awaiting = nil
        switch purpose {
        case .poll:
            return endIfReadingShows(result, now: now) ?? expireIfDue(now: now)
        case .activationBaseline:
            if case .activating? = command { command = .activating(baseline: result.reading?.counters) }
            return endIfReadingShows(result, now: now) ?? [schedule()]
        case .settling(let grant):
            return settle(then: grant, reading: result)
        case .deactivationCheck:
            return endIfReadingShows(result, now: now) ?? [schedule()]
        case .retainCheck(let repliedAt):
            if let ended = endIfReadingShows(result, now: now) { return ended }
            guard telemetryAvailable == false else { return [schedule()] }
            return end(detectedBy: .deactivateCall, deactivatedByService: true, endedAt: repliedAt, now: now) + [schedule()]
        case .serviceWithdrawn(let at):
            return endIfReadingShows(result, now: now)
                ?? end(detectedBy: .serviceDiscovery, endedAt: min(at, now), now: now) + [schedule()]
        case .serviceAppeared(let key):
            guard session == nil, command == nil else { return [schedule()] }
            if let counters = result.reading?.counters, !counters.mayHaveActiveKey { return [schedule()] }
            return start(key, baseline: result.reading?.counters, serviceSeen: true)
        }
    }

    /// Whether `result` shows that the open session's key ended: a completed journey, or counters that
    /// moved (or were reset) since the baseline. If so, the session ends by rule 2 (what telemetry says),
    /// else rules 3 and 4; nil when the reading shows nothing (or there is no session).
    private mutating func endIfReadingShows(_ result: TelemetryResult, now: Instant) -> [EpskcDirective]? {
        guard let reading = result.reading, let session else { return nil }
        let journey = reading.journeys.last
        var ended = journey != nil
        if let baseline = session.baseline, let current = reading.counters {
            ended = ended || current.wasReset(since: baseline) || current.keyEnded(since: baseline)
        }
        guard ended else { return nil }
        let verdict = EpskcReasonInference.fromTelemetry(journey: journey, baseline: session.baseline, current: reading.counters)
        return end(detectedBy: .telemetry, telemetry: verdict, endedAt: endTime(of: journey, in: session, now: now), now: now)
            + [schedule()]
    }
}
