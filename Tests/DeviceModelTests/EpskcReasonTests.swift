import BorderRouterService
import DBus
import DeviceModel
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// Each deactivation reason through its real path on otbr-sim: the events come exactly once, in order,
/// journalled first, with start and end times that match what happened.
@Suite struct EpskcReasonTests {
    /// Activates a key of `seconds` on wpan0 and returns the response and the wall times around the call.
    func activate(_ mgmt: Mgmt, seconds: Int?) async throws -> (Mgmt.ActivateEpskcModeResponse, WallTime, WallTime) {
        let before = now()
        let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: seconds))
        let after = now()
        #expect(r.status == .success, "\(r.message ?? "")")
        return (r, before, after)
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
            let got = try await events.wait(for: 2)
            let start = try #require(got.first?.activated)
            let end = try #require(got.last?.deactivated)
            #expect(start.sessionID == r.sessionID && end.sessionID == r.sessionID)
            #expect(start.activatedAt >= before && start.activatedAt <= after)
            #expect(start.expiresAt == start.activatedAt.advanced(by: .seconds(120)))
            #expect(end.reason == .cancelled && end.detail == nil && end.detectedBy == .deactivateCall)
            #expect(end.activatedAt == start.activatedAt)
            #expect(end.deactivatedAt >= t0 && end.deactivatedAt <= t1)
            // Exactly once; journalled before it was streamed, numbered in order.
            #expect(try await events.settle().count == 2)
            #expect(env.journal.events.count == 2)
            #expect(got.map(\.sequenceNumber) == [1, 2])
            #expect(env.journal.records.map(\.sessionID) == [start.sessionID])
        }
    }

    @Test func aTwoSecondKeyExpires() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            let (_, _, _) = try await activate(mgmt, seconds: 2)
            let got = try await ends.wait(for: 1, timeout: .seconds(4))
            let end = try #require(got.first)
            #expect(end.reason == .expired && end.detail == nil)
            #expect(end.detectedBy == .telemetry)
            // The journey places the end at the key's lifetime.
            #expect(close(end.deactivatedAt, end.activatedAt.advanced(by: .seconds(2)), within: .milliseconds(300)))
            // Reported within a second of happening.
            let arrived = try #require(ends.arrivals.first?.arrived)
            #expect(arrived.duration(since: end.deactivatedAt) < .seconds(1))
            #expect(try await ends.settle().count == 1)
        }
    }

    @Test func aTwoSecondKeyExpiresWithoutTelemetry() async throws {
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            _ = try await activate(mgmt, seconds: 2)
            let end = try #require(try await ends.wait(for: 1, timeout: .seconds(4)).first)
            #expect(end.reason == .expired && end.detail == nil && end.detectedBy == .deadline)
            #expect(end.deactivatedAt == end.activatedAt.advanced(by: .seconds(2)))
            let arrived = try #require(ends.arrivals.first?.arrived)
            #expect(arrived.duration(since: end.deactivatedAt) < .seconds(1))
            #expect(try await env.epskcState() == "stopped")
            #expect(try await ends.settle().count == 1)
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
            #expect(close(end.deactivatedAt, used, within: .milliseconds(300)))
            let arrived = try #require(events.arrivals.last?.arrived)
            #expect(arrived.duration(since: used) < .seconds(1))
            #expect(try await events.settle().count == 2)
        }
    }

    @Test func tenWrongKeysCancelWithTooManyAttempts() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            let (r, _, _) = try await activate(mgmt, seconds: 60)
            let key = try #require(r.epskc)
            let wrong = key.digits == "000000000" ? "111111111" : "000000000"
            for _ in 1...10 { #expect(try await env.control("UseEphemeralKey", [.string(wrong)]) == [.bool(false)]) }
            let tenth = now()
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .cancelled && end.detail == .tooManyAttempts && end.detectedBy == .telemetry)
            #expect(close(end.deactivatedAt, tenth, within: .milliseconds(300)))
            #expect(try await ends.settle().count == 1)
        }
    }

    @Test func anEarlyEndNothingExplainsIsUnspecified() async throws {
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let (first, _, _) = try await activate(mgmt, seconds: 60)
            let ended = now()
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            // Without telemetry (and before mDNS) nothing shows the end: no event, no guess.
            #expect(try await events.settle(.milliseconds(700)).count == 1)
            // A new activation finds the router without a key and settles the old session first.
            let (second, _, renewed) = try await activate(mgmt, seconds: 60)
            let got = try await events.wait(for: 3)
            let end = try #require(got[1].deactivated)
            #expect(end.sessionID == first.sessionID)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .newActivation)
            #expect(end.deactivatedAt >= ended && end.deactivatedAt <= renewed)
            #expect(got[2].activated?.sessionID == second.sessionID)
            #expect(got.map(\.sequenceNumber) == [1, 2, 3])
            #expect(try await events.settle(.milliseconds(300)).count == 3)
            try await mgmt.deactivateEpskcMode()
        }
    }

    @Test func aRestartOfTheAgentEndsTheSession() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            let registry = Recorder(env.service.registryEvents())
            _ = try await activate(mgmt, seconds: 60)
            let crashed = now()
            try await env.control("Crash", [.uint32(300)])
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .routerRestarted)
            #expect(close(end.deactivatedAt, crashed, within: .milliseconds(500)))
            _ = try await registry.wait(for: 2)
            #expect(registry.elements.prefix(2) == [.offline("wpan0"), .online("wpan0")])
            // The router is still listed and usable after the restart.
            #expect(await env.home.devices().map(\.id) == ["wpan0"])
            let again = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 30))
            #expect(again.status == .success)
            #expect(try await ends.settle(.milliseconds(300)).count == 1)
        }
    }

    @Test func nothingIsPolledWhileNoKeyIsActive() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            // A key the service did not start comes and goes while the service is idle.
            _ = try await env.client().activateEphemeralKeyMode(lifetime: .milliseconds(100))
            try await eventually("the key expired") { try await env.epskcState() == "stopped" }
            try await Task.sleep(for: .milliseconds(600))
            // Nobody read TelemetryData meanwhile: its completed journey is still there for the first reader.
            let telemetry = try await env.client().read(.borderAgentTelemetry)
            #expect(telemetry.journeys.map(\.deactivationReason) == [.epskcTimeout])
            #expect(events.elements.isEmpty)
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
            // The connected commissioner keeps the key: the session is still open.
            #expect(try await events.settle(.milliseconds(400)).count == 1)
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
            let events = Recorder(mgmt.epskcEvents())
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            try await mgmt.deactivateEpskcMode(retainActiveSession: true)
            let end = try #require(try await events.wait(for: 2).last?.deactivated)
            #expect(end.reason == .cancelled && end.detail == nil)
            #expect(try await env.epskcState() == "stopped")
            #expect(try await events.settle(.milliseconds(300)).count == 2)
        }
    }

    @Test func theMDNSHookEndsASessionNothingElseSaw() async throws {
        try await withService(configure: { _, c in c.telemetryBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let ends = Recorder(mgmt.epskcModeDeactivatedEvent.stream())
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60)).status == .success)
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            let withdrawn = now()
            await env.service.epskcServiceWithdrawn(router: "wpan0")
            let end = try #require(try await ends.wait(for: 1).first)
            #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .serviceDiscovery)
            #expect(close(end.deactivatedAt, withdrawn, within: .milliseconds(200)))
            await env.service.epskcServiceWithdrawn(router: "wpan0")  // nothing open: nothing happens
            #expect(try await ends.settle(.milliseconds(300)).count == 1)
        }
    }
}
