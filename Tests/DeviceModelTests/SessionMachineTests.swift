@testable import BorderRouterService
import DeviceModel
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

/// The ePSKc session state machine and the reason rules, driven with a manual clock (no I/O).
@Suite struct SessionMachineTests {
    typealias Verdict = EpskcReasonInference.Verdict
    let timing = EpskcSessionMachine.Timing(pollInterval: .milliseconds(250), deadlineGrace: .milliseconds(250))

    func counters(_ change: (inout BorderAgentCounters) -> Void = { _ in }) -> BorderAgentCounters {
        var c = BorderAgentCounters()
        c.epskcActivations = 3
        change(&c)
        return c
    }

    func journey(_ reason: EpskcDeactivationReason, lived ms: UInt32 = 1000) -> EpskcJourney {
        var j = EpskcJourney()
        j.activated = 5000
        j.deactivated = 5000 + ms
        j.deactivationReason = reason
        return j
    }

    /// A machine with a session of `seconds` opened at the clock's now, with baseline counters.
    func opened(_ clock: ManualClock, seconds: Int = 10, telemetry: Bool = true) -> (EpskcSessionMachine, EpskcSessionID) {
        var m = EpskcSessionMachine(deviceID: "wpan0", timing: timing)
        let id = EpskcSessionID.random()
        let reading: TelemetryResult = telemetry ? .read(TelemetryReading(counters: counters())) : .unavailable
        let events = m.activated(
            id: id, validSeconds: seconds, reading: reading, agentInstance: ":1.5", now: clock.now(),
            wall: WallTime(secondsSinceEpoch: clock.wallTime()))
        #expect(events.count == 1 && events.first?.activated?.sessionID == id)
        return (m, id)
    }

    @Test func theRulesApplyInOrder() {
        // 1 beats everything.
        #expect(EpskcReasonInference.infer(deactivatedByService: true, telemetry: Verdict(.keyUsed), endedAtOrAfterDeadline: true)
            == Verdict(.cancelled))
        // 2 beats 3.
        #expect(EpskcReasonInference.infer(deactivatedByService: false, telemetry: Verdict(.keyUsed), endedAtOrAfterDeadline: true)
            == Verdict(.keyUsed))
        // 3, then 4.
        #expect(EpskcReasonInference.infer(deactivatedByService: false, telemetry: nil, endedAtOrAfterDeadline: true) == Verdict(.expired))
        #expect(EpskcReasonInference.infer(deactivatedByService: false, telemetry: nil, endedAtOrAfterDeadline: false)
            == Verdict(.unspecified, .endedEarly))
    }

    @Test func telemetryPrefersTheJourneyThenCountersInTheirOrder() {
        let base = counters()
        let f = EpskcReasonInference.fromTelemetry
        // A journey's reason wins over whatever counters moved.
        #expect(f(journey(.epskcTimeout), base, counters { $0.epskcSecureSessionSuccesses = 1 }) == Verdict(.expired))
        #expect(f(journey(.remoteClose), nil, nil) == Verdict(.keyUsed))
        #expect(f(journey(.sessionError), nil, nil) == Verdict(.keyUsed))
        #expect(f(journey(.localClose), nil, nil) == Verdict(.cancelled))
        #expect(f(journey(.maxAttempts), nil, nil) == Verdict(.cancelled, .tooManyAttempts))
        // An unknown journey reason falls back to the counters.
        #expect(f(journey(.unknown), base, counters { $0.epskcDeactivationTimeouts = 1 }) == Verdict(.expired))
        // Counters, in the rule's order: success/remote close, timeout, local close, max attempts.
        #expect(f(nil, base, counters { $0.epskcSecureSessionSuccesses = 1; $0.epskcDeactivationTimeouts = 1 }) == Verdict(.keyUsed))
        #expect(f(nil, base, counters { $0.epskcDeactivationDisconnects = 1 }) == Verdict(.keyUsed))
        #expect(f(nil, base, counters { $0.epskcDeactivationTimeouts = 1; $0.epskcDeactivationClears = 1 }) == Verdict(.expired))
        #expect(f(nil, base, counters { $0.epskcDeactivationClears = 1 }) == Verdict(.cancelled))
        #expect(f(nil, base, counters { $0.epskcDeactivationMaxAttempts = 1 }) == Verdict(.cancelled, .tooManyAttempts))
        // Nothing moved, no baseline, or counters reset by a restart: telemetry says nothing.
        #expect(f(nil, base, base) == nil)
        #expect(f(nil, nil, counters { $0.epskcDeactivationClears = 1 }) == nil)
        #expect(f(nil, base, BorderAgentCounters()) == nil)
    }

    @Test func nothingIsPolledWhileIdleAndOnlyTheDeadlineWithoutTelemetry() {
        let clock = ManualClock()
        let idle = EpskcSessionMachine(deviceID: "wpan0", timing: timing)
        #expect(idle.nextWakeup() == nil && !idle.pollDue(now: clock.now()))
        let (m, _) = opened(clock, seconds: 10)
        #expect(m.nextWakeup() == clock.now().advanced(by: .milliseconds(250)))
        let (quiet, _) = opened(clock, seconds: 10, telemetry: false)
        #expect(quiet.telemetryAvailable == false)
        #expect(quiet.nextWakeup() == clock.now().advanced(by: .milliseconds(10_250)))
        #expect(!quiet.pollDue(now: clock.now().advanced(by: .seconds(1))))
    }

    @Test func theDeadlineEndsAnUnexplainedSessionAsExpiredExactlyOnce() {
        let clock = ManualClock()
        var (m, id) = opened(clock, seconds: 2, telemetry: false)
        clock.advance(by: .milliseconds(2100))
        #expect(m.timePassed(now: clock.now()) == nil)  // within the grace
        clock.advance(by: .milliseconds(200))
        let end = m.timePassed(now: clock.now())
        #expect(end?.sessionID == id && end?.reason == .expired && end?.detectedBy == .deadline)
        #expect(end.map { $0.deactivatedAt == $0.activatedAt.advanced(by: .seconds(2)) } == true)
        // Once ended, nothing ends it again.
        #expect(m.timePassed(now: clock.now()) == nil)
        #expect(m.deactivated(now: clock.now()) == nil)
        #expect(m.telemetryRead(.read(TelemetryReading(counters: counters { $0.epskcDeactivationClears = 1 })), now: clock.now()) == nil)
        #expect(m.nextWakeup() == nil)
    }

    @Test func telemetryEndsTheSessionAtTheJourneysTime() {
        let clock = ManualClock()
        var (m, _) = opened(clock, seconds: 60)
        clock.advance(by: .milliseconds(300))
        #expect(m.telemetryRead(.read(TelemetryReading(counters: counters { $0.epskcSecureSessionSuccesses = 1 })), now: clock.now()) == nil)
        clock.advance(by: .milliseconds(900))
        let reading = TelemetryReading(
            counters: counters { $0.epskcSecureSessionSuccesses = 1; $0.epskcDeactivationDisconnects = 1 },
            journeys: [journey(.remoteClose, lived: 1000)])
        let end = m.telemetryRead(.read(reading), now: clock.now())
        #expect(end?.reason == .keyUsed && end?.detectedBy == .telemetry)
        #expect(end.map { $0.deactivatedAt == $0.activatedAt.advanced(by: .seconds(1)) } == true)
        #expect(end.map { $0.detectedAt == $0.activatedAt.advanced(by: .milliseconds(1200)) } == true)
    }

    @Test func aNewActivationSettlesAnUnnoticedEndFirst() {
        let clock = ManualClock()
        var (m, old) = opened(clock, seconds: 60, telemetry: false)
        clock.advance(by: .seconds(5))
        let new = EpskcSessionID.random()
        let events = m.activated(
            id: new, validSeconds: 30, reading: nil, agentInstance: ":1.5", now: clock.now(),
            wall: WallTime(secondsSinceEpoch: clock.wallTime()))
        #expect(events.count == 2)
        let end = events.first?.deactivated
        #expect(end?.sessionID == old && end?.reason == .unspecified && end?.detail == .endedEarly)
        #expect(end?.detectedBy == .newActivation)
        #expect(events.last?.activated?.sessionID == new)
        #expect(m.session?.id == new)
    }

    @Test func aRestartEndsTheSessionByTheRulesOfTime() {
        let clock = ManualClock()
        var (m, _) = opened(clock, seconds: 2)
        clock.advance(by: .seconds(1))
        #expect(m.agentRestarted(now: clock.now())?.reason == .unspecified)
        var (late, _) = opened(clock, seconds: 2)
        clock.advance(by: .milliseconds(2100))
        #expect(late.agentRestarted(now: clock.now())?.reason == .expired)
        #expect(late.telemetryAvailable == nil)
    }

    @Test func aRestoredSessionKeepsItsWallTimes() {
        let clock = ManualClock(wallTime: 1_700_000_100)
        var m = EpskcSessionMachine(deviceID: "wpan0", timing: timing)
        let record = EpskcSessionRecord(
            deviceID: "wpan0", sessionID: .random(), activatedAt: WallTime(secondsSinceEpoch: 1_700_000_000),
            validDurationSeconds: 60, telemetryBaseline: counters().serialized())
        let wall = WallTime(secondsSinceEpoch: clock.wallTime())
        let restored = m.restore(record, now: clock.now(), wall: wall)
        let again = m.restore(record, now: clock.now(), wall: wall)
        #expect(restored && again)
        #expect(m.record == record)
        // Its deadline passed 40 s ago: the deadline ends it at once, at the right wall time.
        let end = m.timePassed(now: clock.now())
        #expect(end?.reason == .expired && end?.deactivatedAt == WallTime(secondsSinceEpoch: 1_700_000_060))
        #expect(end?.activatedAt == record.activatedAt)
    }
}
