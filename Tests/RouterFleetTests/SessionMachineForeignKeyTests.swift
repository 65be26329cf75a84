@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRTestKit
import Testing

/// A key started by someone else, seen only as its `_meshcop-e._udp` service appearing: the machine
/// opens a session of unknown validity for it, journalled and published like one of its own, on a
/// manual clock.
@Suite struct SessionMachineForeignKeyTests {
    typealias Grant = EpskcSessionMachine.Grant

    func key(_ h: MachineHarness) -> Grant { Grant(id: .random(), validSeconds: 0, now: h.now, wall: h.wall) }

    @Test func anAppearanceWithNoSessionOpensOneOfUnknownValidityAfterATelemetryBaseline() throws {
        var h = MachineHarness()
        let k = key(h)
        #expect(h.machine.serviceAppeared(k, now: h.now) == [.readTelemetry])
        let baseline = counters { $0.epskcActivations = 4 }  // one more activation than ended keys
        let directives = h.machine.telemetryRead(reading(baseline), now: h.now)
        let start = try #require(directives.started)
        #expect(start.sessionID == k.id && start.validDurationSeconds == 0 && start.activatedAt == k.wall)
        #expect(directives == [.publish(.activated(start), restoreRecord: h.machine.record), .wake(at: h.later(.milliseconds(250)))])
        #expect(h.machine.record?.validDurationSeconds == 0)
        #expect(h.machine.record?.telemetryBaseline == baseline.serialized())

        // Its end shows in telemetry like any other: here the key was used.
        h.advance(.milliseconds(250))
        let end = try #require(h.poll(reading(counters { $0.epskcActivations = 4; $0.epskcDeactivationDisconnects = 1 })).ended)
        #expect(end.sessionID == k.id && end.reason == .keyUsed && end.detectedBy == .telemetry)
    }

    @Test func anAppearanceWhileASessionIsOpenIsThatSessionsKey() {
        var h = MachineHarness()
        h.open(seconds: 60)
        #expect(h.machine.serviceAppeared(key(h), now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
        // Without a telemetry API as well.
        var n = MachineHarness()
        n.open(seconds: 60, baseline: .unavailable)
        #expect(n.machine.serviceAppeared(key(n), now: n.now) == [.wake(at: n.later(.seconds(60) + .milliseconds(250)))])
    }

    @Test func countersShowingNoActiveKeyMeanALateAnnouncementAndOpenNothing() {
        var h = MachineHarness()
        #expect(h.machine.serviceAppeared(key(h), now: h.now) == [.readTelemetry])
        // Three activations, three ended keys.
        let over = counters { $0.epskcDeactivationTimeouts = 2; $0.epskcDeactivationClears = 1 }
        #expect(h.machine.telemetryRead(reading(over), now: h.now) == [.cancelWake])
        #expect(h.machine.session == nil)
    }

    @Test func withoutTelemetryItOpensAtOnceAndTheServiceGoingAwayEndsItWithoutClaimingItEndedEarly() throws {
        var h = MachineHarness()
        h.open(seconds: 1, baseline: .unavailable)  // learns the agent has no telemetry API
        h.advance(.seconds(2))
        _ = h.machine.timerFired(now: h.now)  // the own key expired at its deadline
        #expect(h.machine.session == nil)
        // Within the late-announcement window: that key announced late, nothing opens.
        h.advance(.milliseconds(500))
        #expect(h.machine.serviceAppeared(key(h), now: h.now) == [.cancelWake])
        // Later: a key someone else started.
        h.advance(.seconds(3))
        let k = key(h)
        let directives = h.machine.serviceAppeared(k, now: h.now)
        let start = try #require(directives.started)
        #expect(start.validDurationSeconds == 0)
        // Its timer path looks at OpenThread's longest lifetime, 600 s.
        #expect(directives.last == .wake(at: k.now.advanced(by: .seconds(600) + .milliseconds(250))))
        // The service goes away after 30 s: unspecified, and no "endedEarly" since its validity is unknown.
        h.advance(.seconds(30))
        let end = try #require(h.machine.serviceWithdrawn(at: h.now, now: h.now).ended)
        #expect(end.reason == .unspecified && end.detail == nil && end.detectedBy == .serviceDiscovery)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(30)))
    }

    @Test func aKeyOfUnknownValidityStillAroundAfterTheLongestLifetimeExpired() throws {
        var h = MachineHarness()
        _ = h.machine.telemetryRead(.unavailable, now: h.now)
        let start = try #require(h.machine.serviceAppeared(key(h), now: h.now).started)
        h.advance(.seconds(600) + .milliseconds(250))
        let end = try #require(h.machine.timerFired(now: h.now).ended)
        #expect(end.reason == .expired && end.detectedBy == .deadline)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(600)))
    }

    @Test func aRestoredSessionOfUnknownValidityStaysUnknown() throws {
        var h = MachineHarness()
        _ = h.machine.telemetryRead(.unavailable, now: h.now)
        let start = try #require(h.machine.serviceAppeared(key(h), now: h.now).started)
        let record = try #require(h.machine.record)
        var r = MachineHarness()
        _ = r.machine.telemetryRead(.unavailable, now: r.now)
        _ = try r.machine.restore(record, now: r.now, wall: r.wall)
        #expect(r.machine.record?.validDurationSeconds == 0 && r.machine.record?.sessionID == start.sessionID)
        // tbrd's own deactivate ends it as cancelled.
        #expect(r.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [.wake(at: r.later(.seconds(600) + .milliseconds(250)))], readingFirst: false))
        let end = try #require(r.machine.deactivationSucceeded(now: r.now).ended)
        #expect(end.reason == .cancelled)
    }
}
