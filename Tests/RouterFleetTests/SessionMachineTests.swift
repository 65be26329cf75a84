@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRTestKit
import Testing

/// The ePSKc session machine's decisions around the commands and the timer, on a manual clock: what it
/// reads, when it wakes, what it publishes. No I/O, no sleeping.
@Suite struct SessionMachineTests {
    @Test func anIdleRouterIsNeverPolledAndNeedsNoTimer() {
        var h = MachineHarness()
        #expect(h.machine.timerFired(now: h.now) == [.cancelWake])
        #expect(h.machine.serviceWithdrawn(at: h.now, now: h.now) == [.cancelWake])
        // Deactivating with no session open asks the agent without reading telemetry, and reports nothing.
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [.cancelWake], readingFirst: false))
        #expect(h.machine.deactivationSucceeded(now: h.now) == [.cancelWake])
        // A reading that arrives anyway (a journey of a key someone else started) ends nothing.
        #expect(h.machine.telemetryRead(reading(counters(), journey(.epskcTimeout)), now: h.now) == [.cancelWake])
        #expect(h.machine.session == nil)
    }

    @Test func anActivationReadsItsBaselineThenPollsEveryIntervalWhileTheKeyIsActive() throws {
        var h = MachineHarness()
        let base = counters { $0.epskcSecureSessionSuccesses = 7 }
        let start = h.open(seconds: 60, baseline: reading(base))
        // The journal gets what recovers the session: the baseline and the agent instance, never a key.
        let record = try #require(h.machine.record)
        #expect(record.sessionID == start.sessionID && record.activatedAt == start.activatedAt)
        #expect(record.telemetryBaseline == base.serialized() && record.agentInstance == ":1.5")
        #expect(record.validDurationSeconds == 60)
        // Woken early (another input changed the timer): nothing is due, the same wake-up stands.
        h.advance(.milliseconds(100))
        #expect(h.machine.timerFired(now: h.now) == [.wake(at: h.later(.milliseconds(150)))])
        // Each poll that shows nothing schedules the next one a poll interval later.
        for _ in 0..<4 {
            h.advance(.milliseconds(150))
            #expect(h.machine.timerFired(now: h.now) == [.readTelemetry])
            #expect(h.machine.telemetryRead(reading(base), now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
            h.advance(.milliseconds(100))
        }
        #expect(h.machine.session?.id == start.sessionID)
    }

    @Test func aRefusedActivationStartsNothing() {
        var h = MachineHarness()
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(h.machine.telemetryRead(reading(), now: h.now) == [.cancelWake])
        #expect(h.machine.activationFailed() == [.cancelWake])
        #expect(h.machine.session == nil && h.machine.record == nil)
    }

    @Test func withoutTheTelemetryAPIOnlyTheDeadlineIsScheduledAndTelemetryIsNeverReadAgain() throws {
        var h = MachineHarness()
        // The first read says NotImplemented: from then on no input asks for a read.
        let start = h.open(seconds: 10, baseline: .unavailable)
        #expect(h.machine.telemetryAvailable == false)
        #expect(h.machine.record?.telemetryBaseline == nil)
        h.advance(.seconds(1))
        #expect(h.machine.timerFired(now: h.now) == [.wake(at: h.later(.milliseconds(9_250)))])
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [.wake(at: h.later(.milliseconds(9_250)))], readingFirst: false))
        #expect(h.machine.deactivationFailed() == [.wake(at: h.later(.milliseconds(9_250)))])
        // The deadline and its grace pass: expired at the deadline, without a last read.
        h.advance(.milliseconds(9_250))
        let end = try #require(h.machine.timerFired(now: h.now).ended)
        #expect(end.reason == .expired && end.detail == nil && end.detectedBy == .deadline)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(10)))
        #expect(end.detectedAt == start.activatedAt.advanced(by: .milliseconds(10_250)))
        // The next activation reads nothing either.
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [.cancelWake], readingFirst: false))
    }

    @Test func aFailedReadLearnsNothingAndTheDeadlineStillApplies() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 1)
        h.advance(.milliseconds(250))
        #expect(h.machine.timerFired(now: h.now) == [.readTelemetry])
        #expect(h.machine.telemetryRead(.failed, now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
        #expect(h.machine.telemetryAvailable == true)  // from the baseline read; a failure changes nothing
        // Every read fails until the deadline: the last look at deadline + grace fails too, and rule 3 decides.
        for _ in 0..<3 {
            h.advance(.milliseconds(250))
            #expect(h.poll(.failed).ended == nil)
        }
        h.advance(.milliseconds(250))
        let directives = h.poll(.failed)
        let end = try #require(directives.ended)
        #expect(directives.last == .cancelWake)
        #expect(end.reason == .expired && end.detectedBy == .deadline)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(1)))
    }

    @Test func aSessionEndsExactlyOnce() throws {
        var h = MachineHarness()
        h.open(seconds: 2)
        h.advance(.milliseconds(2_250))
        #expect(h.poll(reading()).ended?.reason == .expired)
        // Nothing that comes later ends it again, and nothing more is scheduled.
        #expect(h.machine.timerFired(now: h.now) == [.cancelWake])
        #expect(h.machine.telemetryRead(reading(counters { $0.epskcDeactivationClears = 1 }), now: h.now) == [.cancelWake])
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [.cancelWake], readingFirst: false))
        #expect(h.machine.deactivationSucceeded(now: h.now) == [.cancelWake])
        #expect(h.machine.agentVanished(now: h.now) == [.cancelWake])
        #expect(h.machine.serviceWithdrawn(at: h.now, now: h.now) == [.cancelWake])
    }

    @Test func deactivatingChecksTelemetryThenCancels() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 120)
        let opened = h.now
        h.advance(.seconds(3))
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [], readingFirst: true))
        // The check is no poll: the poll that was due stays due.
        #expect(h.machine.telemetryRead(reading(), now: h.now) == [.wake(at: opened.advanced(by: .milliseconds(250)))])
        h.advance(.milliseconds(20))
        let directives = h.machine.deactivationSucceeded(now: h.now)
        let end = try #require(directives.ended)
        #expect(directives == [.publish(.deactivated(end), restoreRecord: nil), .cancelWake])
        #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .deactivateCall)
        #expect(end.sessionID == start.sessionID && end.activatedAt == start.activatedAt)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(3_020)))
        #expect(end.detectedAt == end.deactivatedAt)
    }

    @Test func aKeyThatEndedBeforeTheDeactivateKeepsTheReasonTheRouterGives() throws {
        var h = MachineHarness()
        h.open(seconds: 60)
        h.advance(.seconds(2))
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [], readingFirst: true))
        let end = try #require(
            h.machine.telemetryRead(reading(counters { $0.epskcDeactivationMaxAttempts = 1 }, journey(.maxAttempts)), now: h.now).ended)
        #expect(end.reason == .cancelled && end.detail == .tooManyAttempts && end.detectedBy == .telemetry)
        // The call still goes to the agent (harmless); it ends nothing more.
        #expect(h.machine.deactivationSucceeded(now: h.now) == [.cancelWake])
    }

    @Test func aRefusedDeactivateLeavesTheSessionOpen() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 60)
        #expect(h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(h.machine.telemetryRead(reading(), now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
        #expect(h.machine.deactivationFailed() == [.wake(at: h.later(.milliseconds(250)))])
        #expect(h.machine.session?.id == start.sessionID)
    }

    @Test func retainingKeepsTheSessionWhileACommissionerIsConnectedAndEndsItWhenTheyLeave() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 60)
        // A commissioner connected with the key: a secure session succeeded, which alone ends nothing.
        h.advance(.milliseconds(250))
        let connected = counters { $0.epskcSecureSessionSuccesses = 1 }
        #expect(h.poll(reading(connected)) == [.wake(at: h.later(.milliseconds(250)))])
        h.advance(.milliseconds(100))
        #expect(h.machine.deactivationRequested(retainActiveSession: true) == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(h.machine.telemetryRead(reading(connected), now: h.now) == [.wake(at: h.later(.milliseconds(150)))])
        // The agent kept the key: the reading after the call shows it still active, so the session stays open.
        #expect(h.machine.deactivationSucceeded(now: h.now) == [.readTelemetry])
        #expect(h.machine.telemetryRead(reading(connected), now: h.now) == [.wake(at: h.later(.milliseconds(150)))])
        #expect(h.machine.session?.id == start.sessionID)
        // The commissioner disconnects; the next poll sees the journey: the key was used.
        h.advance(.milliseconds(150))
        let end = try #require(
            h.poll(reading(counters { $0.epskcSecureSessionSuccesses = 1; $0.epskcDeactivationDisconnects = 1 }, journey(.remoteClose, lived: 400))).ended)
        #expect(end.reason == .keyUsed && end.detectedBy == .telemetry)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(400)))
    }

    @Test func retainingWithNobodyConnectedEndsTheWayTheRouterSays() throws {
        var h = MachineHarness()
        h.open(seconds: 60)
        #expect(h.machine.deactivationRequested(retainActiveSession: true) == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(h.machine.telemetryRead(reading(), now: h.now).ended == nil)
        #expect(h.machine.deactivationSucceeded(now: h.now) == [.readTelemetry])
        let directives = h.machine.telemetryRead(reading(counters { $0.epskcDeactivationClears = 1 }, journey(.localClose, lived: 0)), now: h.now)
        #expect(directives.last == .cancelWake)
        let end = try #require(directives.ended)
        #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .telemetry)
    }

    @Test func retainingWithoutTelemetryIsTakenAsTheEnd() throws {
        // Known to lack telemetry: no read at all, the call ends it.
        var h = MachineHarness()
        h.open(seconds: 60, baseline: .unavailable)
        #expect(h.machine.deactivationRequested(retainActiveSession: true).before.last?.isTimer == true)
        let end = try #require(h.machine.deactivationSucceeded(now: h.now).ended)
        #expect(end.reason == .cancelled && end.detectedBy == .deactivateCall)

        // Not known yet (every read so far failed): the read after the call finds no telemetry API, and
        // the end is placed at the call's reply.
        var u = MachineHarness()
        let start = u.open(seconds: 60, baseline: .failed)
        #expect(u.machine.telemetryAvailable == nil)
        #expect(u.machine.deactivationRequested(retainActiveSession: true) == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(u.machine.telemetryRead(.failed, now: u.now).ended == nil)
        let replied = u.now
        #expect(u.machine.deactivationSucceeded(now: replied) == [.readTelemetry])
        u.advance(.milliseconds(30))
        let late = try #require(u.machine.telemetryRead(.unavailable, now: u.now).ended)
        #expect(late.reason == .cancelled && late.detectedBy == .deactivateCall)
        #expect(late.deactivatedAt == start.activatedAt && late.detectedAt == start.activatedAt.advanced(by: .milliseconds(30)))
    }

    @Test func aNewActivationSettlesAnUnnoticedEndWithoutTelemetryByTheRulesOfTime() throws {
        var h = MachineHarness()
        let old = h.open(seconds: 60, baseline: .unavailable)
        h.advance(.seconds(5))
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [.wake(at: h.later(.milliseconds(55_250)))], readingFirst: false))
        let grant = EpskcSessionMachine.Grant(id: .random(), validSeconds: 30, now: h.now, wall: h.wall)
        let directives = h.machine.activationSucceeded(grant)
        #expect(directives.events.count == 2 && directives.last == .wake(at: h.later(.milliseconds(30_250))))
        let end = try #require(directives.events.first?.deactivated)
        #expect(end.sessionID == old.sessionID && end.reason == .unspecified && end.detail == .endedEarly)
        #expect(end.detectedBy == .newActivation && end.deactivatedAt == old.activatedAt.advanced(by: .seconds(5)))
        #expect(directives.events.last?.activated?.sessionID == grant.id)
        #expect(h.machine.session?.id == grant.id)
    }

    @Test func aNewActivationSettlesAnUnnoticedEndFromTheReadingAfterTheGrant() throws {
        var h = MachineHarness()
        let old = h.open(seconds: 60)
        h.advance(.seconds(5))
        // The baseline read shows nothing, yet the agent grants a new key: the old one had ended.
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [], readingFirst: true))
        #expect(h.machine.telemetryRead(reading(), now: h.now).ended == nil)
        let grant = EpskcSessionMachine.Grant(id: .random(), validSeconds: 30, now: h.now, wall: h.wall)
        #expect(h.machine.activationSucceeded(grant) == [.readTelemetry])
        let after = counters { $0.epskcActivations = 4; $0.epskcDeactivationClears = 1 }
        h.advance(.milliseconds(10))
        let directives = h.machine.telemetryRead(reading(after), now: h.now)
        let end = try #require(directives.events.first?.deactivated)
        #expect(end.sessionID == old.sessionID && end.reason == .cancelled && end.detectedBy == .newActivation)
        #expect(end.deactivatedAt == old.activatedAt.advanced(by: .seconds(5)))  // at the grant
        #expect(directives.events.last?.activated?.sessionID == grant.id)
        // The new session's baseline is that reading, so the old key's counters do not end it.
        #expect(h.machine.record?.telemetryBaseline == after.serialized())
        #expect(directives.last == .wake(at: grant.now.advanced(by: .milliseconds(250))))
    }

    @Test func theServiceWithdrawnHookConsultsTelemetryFirst() throws {
        // Telemetry shows why: rule 2.
        var h = MachineHarness()
        h.open(seconds: 60)
        #expect(h.machine.serviceWithdrawn(at: h.now, now: h.now) == [.readTelemetry])
        let used = try #require(h.machine.telemetryRead(reading(counters(), journey(.sessionTimeout)), now: h.now).ended)
        #expect(used.reason == .keyUsed && used.detectedBy == .telemetry)

        // Telemetry shows nothing: the service's moment, by rules 3 and 4.
        var q = MachineHarness()
        let start = q.open(seconds: 60)
        q.advance(.seconds(4))
        let withdrawn = q.now
        #expect(q.machine.serviceWithdrawn(at: withdrawn, now: q.later(.seconds(1))) == [.readTelemetry])
        q.advance(.seconds(2))
        let early = try #require(q.machine.telemetryRead(reading(), now: q.now).ended)
        #expect(early.reason == .unspecified && early.detail == .endedEarly && early.detectedBy == .serviceDiscovery)
        #expect(early.deactivatedAt == start.activatedAt.advanced(by: .seconds(4)))
        #expect(early.detectedAt == start.activatedAt.advanced(by: .seconds(6)))

        // Without telemetry: no read; a moment in the future is taken as now; past the deadline it expired.
        var n = MachineHarness()
        let s = n.open(seconds: 1, baseline: .unavailable)
        n.advance(.seconds(2))
        let expired = try #require(n.machine.serviceWithdrawn(at: n.later(.seconds(9)), now: n.now).ended)
        #expect(expired.reason == .expired && expired.detectedBy == .serviceDiscovery)
        #expect(expired.deactivatedAt == s.activatedAt.advanced(by: .seconds(2)))
    }
}
