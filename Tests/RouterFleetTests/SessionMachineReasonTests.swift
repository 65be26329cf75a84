@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRTestKit
import Testing

/// Every reason an ePSKc session can end with, decided by the machine (ARCHITECTURE "ePSKc lifecycle",
/// rules 1–4), with the end's times, on a manual clock.
@Suite struct SessionMachineReasonTests {
    typealias Reason = ThreadNetworkManagementTrait.EpskcModeDeactivationReason
    typealias Detail = ThreadNetworkManagementTrait.EpskcModeDeactivationDetail

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
        // An unknown journey reason falls back to the counters.
        #expect(f(journey(.unknown), base, counters { $0.epskcDeactivationTimeouts = 1 }) == Verdict(.expired))
        // Counters, in the rule's order: success/remote close, timeout, local close, max attempts.
        #expect(f(nil, base, counters { $0.epskcSecureSessionSuccesses = 1; $0.epskcDeactivationTimeouts = 1 }) == Verdict(.keyUsed))
        #expect(f(nil, base, counters { $0.epskcDeactivationTimeouts = 1; $0.epskcDeactivationClears = 1 }) == Verdict(.expired))
        #expect(f(nil, base, counters { $0.epskcDeactivationClears = 1; $0.epskcDeactivationMaxAttempts = 1 }) == Verdict(.cancelled))
        // Nothing moved, no baseline, or counters reset by a restart: telemetry says nothing.
        #expect(f(nil, base, base) == nil)
        #expect(f(nil, nil, counters { $0.epskcDeactivationClears = 1 }) == nil)
        #expect(f(nil, base, BorderAgentCounters()) == nil)
    }

    static let journeyReasons: [(EpskcDeactivationReason, Reason, Detail?)] = [
        (.remoteClose, .keyUsed, nil), (.sessionError, .keyUsed, nil), (.sessionTimeout, .keyUsed, nil),
        (.epskcTimeout, .expired, nil), (.localClose, .cancelled, nil), (.maxAttempts, .cancelled, .tooManyAttempts),
    ]

    @Test(arguments: journeyReasons)
    func aPollThatFindsAJourneyEndsTheSessionWithItsReasonAtItsTime(
        journeyReason: EpskcDeactivationReason, reason: Reason, detail: Detail?
    ) throws {
        var h = MachineHarness()
        let start = h.open(seconds: 60)
        h.advance(.milliseconds(250))
        #expect(h.poll(reading()) == [.wake(at: h.later(.milliseconds(250)))])
        h.advance(.milliseconds(250))
        // The agent's journey says the key lived 420 ms; the poll at 500 ms reports it.
        let directives = h.poll(reading(counters(), journey(journeyReason, lived: 420)))
        let end = try #require(directives.ended)
        #expect(directives == [.publish(.deactivated(end), restoreRecord: nil), .cancelWake])
        #expect(end.sessionID == start.sessionID && end.activatedAt == start.activatedAt)
        #expect(end.reason == reason && end.detail == detail && end.detectedBy == .telemetry)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(420)))
        #expect(end.detectedAt == start.activatedAt.advanced(by: .milliseconds(500)))
        #expect(h.machine.session == nil)
    }

    static let counterDeltas: [(String, any WritableKeyPath<BorderAgentCounters, UInt32> & Sendable, Reason, Detail?)] = [
        ("disconnect", \.epskcDeactivationDisconnects, .keyUsed, nil),
        ("timeout", \.epskcDeactivationTimeouts, .expired, nil),
        ("clear", \.epskcDeactivationClears, .cancelled, nil),
        ("max attempts", \.epskcDeactivationMaxAttempts, .cancelled, .tooManyAttempts),
        // A session error ends the key, but its counter alone does not say how: rule 4, never a guess.
        ("session error", \.epskcStartSecureSessionErrors, .unspecified, .endedEarly),
    ]

    @Test(arguments: counterDeltas)
    func aCounterThatMovedEndsTheSessionWhenNoJourneySaysWhy(
        name: String, counter: any WritableKeyPath<BorderAgentCounters, UInt32> & Sendable, reason: Reason, detail: Detail?
    ) throws {
        // Another client read TelemetryData and took the journey: the counters against the baseline decide.
        var h = MachineHarness()
        let start = h.open(seconds: 60, baseline: reading(counters { $0[keyPath: counter] = 2 }))
        h.advance(.milliseconds(750))
        let end = try #require(h.poll(reading(counters { $0[keyPath: counter] = 3 })).ended, "\(name)")
        #expect(end.reason == reason && end.detail == detail && end.detectedBy == .telemetry, "\(name)")
        // No journey, no lifetime: the end is placed at the poll that saw it.
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(750)))
    }

    @Test func aSuccessfulSecureSessionAloneDoesNotEndTheKey() {
        var h = MachineHarness()
        h.open(seconds: 60)
        h.advance(.milliseconds(250))
        let connected = counters { $0.epskcSecureSessionSuccesses = 1; $0.epskcCommissionerPetitions = 1; $0.mgmtActiveGets = 1 }
        #expect(h.poll(reading(connected)) == [.wake(at: h.later(.milliseconds(250)))])
        // The commissioner disconnects: success plus disconnect is keyUsed.
        h.advance(.milliseconds(250))
        var left = connected
        left.epskcDeactivationDisconnects = 1
        #expect(h.poll(reading(left)).ended?.reason == .keyUsed)
    }

    @Test func aKeySwitchedOffWithEphemeralKeyEnabledFalseIsCancelled() throws {
        // `Set EphemeralKeyEnabled=false` by someone else stops the key as a local close: the clears
        // counter moves and the journey says LOCAL_CLOSE. Not tbrd's own deactivate, so rule 2 decides.
        let switchedOff = counters { $0.epskcDeactivationClears = 1 }
        var h = MachineHarness()
        h.open(seconds: 60)
        h.advance(.seconds(1))
        let end = try #require(h.poll(reading(switchedOff, journey(.localClose, lived: 1000))).ended)
        #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .telemetry)
        // The same from the counters alone, the journey having been read by someone else.
        var c = MachineHarness()
        c.open(seconds: 60)
        c.advance(.seconds(1))
        #expect(c.poll(reading(switchedOff)).ended?.reason == .cancelled)
    }

    @Test func countersResetByAnAgentRestartEndTheSessionByTheRulesOfTime() throws {
        // Lower counters mean the agent restarted (under the same bus name): the key is gone, and the
        // counters cannot say why.
        var h = MachineHarness()
        h.open(seconds: 60)
        h.advance(.seconds(1))
        let early = try #require(h.poll(reading(BorderAgentCounters())).ended)
        #expect(early.reason == .unspecified && early.detail == .endedEarly && early.detectedBy == .telemetry)
        var l = MachineHarness()
        l.open(seconds: 1)
        l.advance(.milliseconds(1_250))
        #expect(l.poll(reading(BorderAgentCounters())).ended?.reason == .expired)
    }

    @Test func theLastLookAtTheDeadlineLetsTelemetryWin() throws {
        // A commissioner used the key just before the deadline; the last read after the grace says so.
        var h = MachineHarness()
        let start = h.open(seconds: 1)
        for _ in 0..<4 {
            h.advance(.milliseconds(250))
            #expect(h.poll(reading()).ended == nil)
        }
        h.advance(.milliseconds(250))
        let end = try #require(h.poll(reading(counters { $0.epskcDeactivationDisconnects = 1 }, journey(.remoteClose, lived: 990))).ended)
        #expect(end.reason == .keyUsed && end.detectedBy == .telemetry)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(990)))
    }

    @Test func aKeyTheRouterTimedOutExpiresAtItsDeadline() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 2)
        h.advance(.seconds(2))
        let end = try #require(h.poll(reading(counters { $0.epskcDeactivationTimeouts = 1 }, journey(.epskcTimeout, lived: 2_000))).ended)
        #expect(end.reason == .expired && end.detail == nil && end.detectedBy == .telemetry)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(2)))
    }

    @Test func aJourneyLongerThanWhatWasSeenIsPlacedWhenItWasSeen() throws {
        // The agent's clock and ours differ: the end is never after the moment it was noticed.
        var h = MachineHarness()
        let start = h.open(seconds: 60)
        h.advance(.milliseconds(500))
        let end = try #require(h.poll(reading(counters(), journey(.localClose, lived: 5_000))).ended)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .milliseconds(500)))
    }

    @Test func ourOwnDeactivateIsCancelledWhateverTelemetrySaysAfterwards() throws {
        // Rule 1: the call ends the session; a journey read later belongs to no session.
        var h = MachineHarness()
        h.open(seconds: 60, baseline: .unavailable)
        #expect(h.machine.deactivationSucceeded(now: h.now).ended?.reason == .cancelled)
        #expect(h.machine.telemetryRead(reading(counters(), journey(.remoteClose)), now: h.now) == [.cancelWake])
    }
}
