import BorderRouterService
import DBus
import DeviceModel
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing
import RouterFleet
import InternetAccessPolicy

/// Each way a key ends, end to end: the service on a private bus with otbr-sim, the events as a user
/// receives them (once, in order, journalled first). The decisions themselves, with their exact times,
/// are tested on a manual clock (``SessionMachineTests``, ``SessionMachineReasonTests``); here times are
/// only checked for causality (an end never before its cause, never after it was noticed), and waits
/// are generous timeouts on conditions that normally hold within a fraction of a second.
@Suite struct EpskcReasonTests {
    /// Activates a key of `seconds` on wpan0 and returns the response and the wall times around the call.
    func activate(_ mgmt: Mgmt, seconds: Int?) async throws -> (Mgmt.ActivateEpskcModeResponse, WallTime, WallTime) {
        let before = now()
        let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: seconds))
        let after = now()
        #expect(r.status == .success, "\(r.message ?? "")")
        return (r, before, after)
    }

    /// Checks the times of `end`: not before the start, no later than it was noticed, and noticed after
    /// `cause`.
    func expectCausal(_ end: Mgmt.EpskcModeDeactivatedEvent, after cause: WallTime, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(end.deactivatedAt >= end.activatedAt, sourceLocation: sourceLocation)
        #expect(end.deactivatedAt <= end.detectedAt, sourceLocation: sourceLocation)
        #expect(end.detectedAt >= cause, sourceLocation: sourceLocation)
    }

    @Test func deactivatingCancels() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let (r, before, after) = try await activate(mgmt, seconds: nil)
            #expect(r.validDurationSeconds == 120)
            #expect(try await env.epskcState() == "started")
            let t0 = now()
            try await mgmt.deactivateEpskcMode()
            let t1 = now()
            #expect(try await env.epskcState() == "stopped")
            // The end is journalled before deactivateEpskcMode returns.
            #expect(env.journal.events.count == 2)
            let got = try await events.wait(for: 2)
            let start = try #require(got.first?.activated)
            let end = try #require(got.last?.deactivated)
            #expect(start.sessionID == r.sessionID && end.sessionID == r.sessionID)
            #expect(start.activatedAt >= before && start.activatedAt <= after)
            #expect(start.expiresAt == start.activatedAt.advanced(by: .seconds(120)))
            #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .deactivateCall)
            #expect(end.activatedAt == start.activatedAt)
            #expect(end.deactivatedAt >= t0 && end.deactivatedAt <= t1)
            #expect(got.map(\.sequenceNumber) == [1, 2])
            #expect(env.journal.records.map(\.sessionID) == [start.sessionID])
            #expect(await env.service.openEpskcSessions().isEmpty)
        }
    }

    @Test func aKeyExpires() async throws {
        // The deadline rule gets a grace far beyond any scheduling delay, so the end is the one the
        // router's telemetry reports (with the default 250 ms, a loaded machine can run the simulator's
        // own timer late and the deadline rule ends the key first: `aKeyExpiresWithoutTelemetry`).
        var configuration = testServiceConfiguration()
        configuration.epskcDeadlineGrace = .seconds(60)
        try await withService(configuration: configuration) { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            let (_, requested, granted) = try await activate(mgmt, seconds: 1)
            let end = try #require(try await ends.wait(for: 1).first)
            // The router's journey says the key timed out. The end is placed at the start plus the
            // journey's lifetime, or when it was noticed if that is earlier; either way not before the
            // key had lived its second from the moment it was asked for (the agent counts whole ms).
            #expect(end.reason == .expired && end.detail == nil && end.detectedBy == .telemetry)
            #expect(end.deactivatedAt >= requested.advanced(by: .milliseconds(999)))
            expectCausal(end, after: granted)
            #expect(env.journal.events.count == 2)
        }
    }

    @Test func aKeyExpiresWithoutTelemetry() async throws {
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            _ = try await activate(mgmt, seconds: 1)
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .expired && end.detail == nil && end.detectedBy == .deadline)
            #expect(end.deactivatedAt == end.activatedAt.advanced(by: .seconds(1)))
            #expect(end.detectedAt >= end.deactivatedAt)
            try await eventually("the router's own timer stopped the key", timeout: .seconds(20)) {
                try await env.epskcState() == "stopped"
            }
        }
    }

    @Test func aCommissionerUsesTheKey() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let (r, _, _) = try await activate(mgmt, seconds: 60)
            let key = try #require(r.epskc)
            let used = now()
            #expect(try await env.control("UseEphemeralKey", [.string(key.digits)]) == [.bool(true)])
            let got = try await events.wait(for: 2)
            let end = try #require(got.last?.deactivated)
            #expect(end.reason == .keyUsed && end.detail == nil && end.detectedBy == .telemetry)
            expectCausal(end, after: used)
            #expect(got.map(\.sequenceNumber) == [1, 2])
        }
    }

    @Test func tenWrongKeysCancelWithTooManyAttempts() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            let (r, _, _) = try await activate(mgmt, seconds: 60)
            let key = try #require(r.epskc)
            let wrong = key.digits == "000000000" ? "111111111" : "000000000"
            let first = now()
            for _ in 1...10 { #expect(try await env.control("UseEphemeralKey", [.string(wrong)]) == [.bool(false)]) }
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .cancelled && end.detail == .tooManyAttempts && end.detectedBy == .telemetry)
            expectCausal(end, after: first)
            #expect(try await env.epskcState() == "stopped")
        }
    }

    @Test func anEarlyEndNothingExplainsIsSettledByTheNextActivation() async throws {
        // Without telemetry (and before mDNS) nothing shows an early end (the machine schedules only the
        // deadline: SessionMachineTests); the next activation finds the router without a key.
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let (first, _, _) = try await activate(mgmt, seconds: 60)
            let ended = now()
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            let (second, _, renewed) = try await activate(mgmt, seconds: 60)
            let got = try await events.wait(for: 3)
            let end = try #require(got[1].deactivated)
            #expect(end.sessionID == first.sessionID)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .newActivation)
            #expect(end.deactivatedAt >= ended && end.deactivatedAt <= renewed)
            #expect(got[2].activated?.sessionID == second.sessionID)
            #expect(got.map(\.sequenceNumber) == [1, 2, 3])
            try await mgmt.deactivateEpskcMode()
            #expect(try await events.wait(for: 4).map { Optional($0.sessionID) } == [first, first, second, second].map(\.sessionID))
        }
    }

    @Test func aRestartOfTheAgentEndsTheSession() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let registry = Recorder(env.service.registryEvents())
            let (first, _, _) = try await activate(mgmt, seconds: 60)
            let crashed = now()
            try await env.control("Crash", [.uint32(300)])
            let end = try #require(try await events.wait(for: 2).last?.deactivated)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .routerRestarted)
            #expect(end.deactivatedAt >= crashed && end.deactivatedAt <= end.detectedAt)
            #expect(try await registry.wait(for: 2).prefix(2) == [.offline("wpan0"), .online("wpan0")])
            // The router is still listed and usable after the restart; the old session ended once.
            #expect(await env.home.devices().map(\.id) == ["wpan0"])
            let again = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 30))
            #expect(again.status == .success)
            let all = try await events.wait(for: 3)
            #expect(all.map { Optional($0.sessionID) } == [first.sessionID, first.sessionID, again.sessionID])
            #expect(env.journal.events.count == 3)
        }
    }

    @Test func nothingIsPolledWhileNoKeyIsActive() async throws {
        // The service on a clock that moves only when told: its router waits on it only for a timer.
        let clock = ManualClock()
        try await withService(clock: clock) { env throws in
            let (_, mgmt) = try await env.management()
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            try await eventually("the router waits for its next poll", timeout: .seconds(20), wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
            try await mgmt.deactivateEpskcMode()
            try await eventually("the router has no timer", timeout: .seconds(20), wakingOn: clock.wakeups) { clock.sleeperCount == 0 }
            // A key the service did not start comes and goes, and an hour passes on the service's clock.
            _ = try await env.client().activateEphemeralKeyMode(lifetime: .milliseconds(100))
            try await eventually("the key expired", timeout: .seconds(20)) { try await env.epskcState() == "stopped" }
            clock.advance(by: .seconds(3600))
            #expect(clock.sleeperCount == 0)
            // Nobody read TelemetryData since the deactivation: both journeys are still there.
            let telemetry = try await env.client().read(.borderAgentTelemetry)
            #expect(telemetry.journeys.map(\.deactivationReason) == [.localClose, .epskcTimeout])
            #expect(env.journal.events.count == 2)
        }
    }

    @Test func retainingTheSessionLetsTheCommissionerFinish() async throws {
        try await withService(configure: { _, c in c.formed() }) { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60))
            let key = try #require(r.epskc)
            #expect(await env.service.routerSummaries().first?.epskcSessionOpen == true)
            #expect(try await env.control("ConnectCommissioner", [.string(key.digits)]) == [.bool(true)])
            try await mgmt.deactivateEpskcMode(retainActiveSession: true)
            // The connected commissioner keeps the key: the session is still open when the call returns.
            #expect(await env.service.openEpskcSessions().map(\.sessionID) == [r.sessionID])
            #expect(env.journal.events.count == 1)
            #expect(try await env.epskcState() == "accepted")
            #expect(try await env.control("DisconnectCommissioner") == [.bool(true)])
            let end = try #require(try await events.wait(for: 2).last?.deactivated)
            #expect(end.reason == .keyUsed && end.detectedBy == .telemetry)
            #expect(await env.service.routerSummaries().first?.epskcSessionOpen == false)
        }
    }

    @Test func retainingWithNobodyConnectedStillEndsTheKey() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            try await mgmt.deactivateEpskcMode(retainActiveSession: true)
            // Settled before the call returns, from the router's own telemetry (LOCAL_CLOSE).
            let end = try #require(env.journal.events.last?.deactivated)
            #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .telemetry)
            #expect(env.journal.events.count == 2)
            #expect(try await env.epskcState() == "stopped")
        }
    }

    @Test func theMDNSHookEndsASessionNothingElseSaw() async throws {
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            // The service times a session on the monotonic clock and shows its end as the activation's wall
            // time plus that duration; the wall clock drifts from the monotonic one by parts per million.
            // The hook below takes its time microseconds after `t0`, so after a long session on a busy
            // machine a wall-clock comparison can be off by more than that gap (issue 33: deactivatedAt
            // came before t0 once). Causality is checked on the monotonic clock instead.
            let beforeActivation = ContinuousClock.now
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            let afterActivation = ContinuousClock.now
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            let t0 = ContinuousClock.now
            await env.service.epskcServiceWithdrawn(router: "wpan0")
            let t1 = ContinuousClock.now
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .serviceDiscovery)
            // Seconds since the epoch in a Double resolve about 0.24 µs today: a microsecond of slack.
            let active = end.deactivatedAt.duration(since: end.activatedAt)
            #expect(active >= (t0 - afterActivation) - .microseconds(1), "the end is not before the withdrawal")
            #expect(active <= (t1 - beforeActivation) + .microseconds(1), "nor after it was noticed")
            await env.service.epskcServiceWithdrawn(router: "wpan0")  // nothing open: nothing happens
            #expect(env.journal.events.count == 2)
        }
    }
}
