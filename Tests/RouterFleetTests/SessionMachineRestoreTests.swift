@testable import RouterFleet
import DeviceModel
import OpenThreadBR
import TBRTestKit
import Testing

/// The ePSKc session machine across restarts: of the service (restore from the journal) and of the
/// agent (vanishing, another instance), on a manual clock.
@Suite struct SessionMachineRestoreTests {
    /// A record journalled by a service that stopped: a key of `seconds` granted by agent `instance` at
    /// wall time 1_700_000_000.
    func record(seconds: Int = 60, instance: String? = ":1.5") -> EpskcSessionRecord {
        EpskcSessionRecord(
            deviceID: "wpan0", sessionID: .random(), activatedAt: WallTime(secondsSinceEpoch: 1_700_000_000),
            validDurationSeconds: seconds, agentInstance: instance, telemetryBaseline: counters().serialized())
    }

    /// A harness whose wall clock reads 1_700_000_000 + `elapsed`, its agent on the bus as `agent`.
    func restarted(after elapsed: Double, agent: String? = ":1.5") -> MachineHarness {
        let h = MachineHarness(agent: agent)
        h.advance(.seconds(elapsed - (h.clock.wallTime() - 1_700_000_000)))
        return h
    }

    @Test func aRestoredSessionIsReadAtOnceAndKeepsItsTimes() throws {
        // Restored 10 s after its start, while the agent is on the bus: telemetry is read at once.
        var h = restarted(after: 10)
        let r = record()
        #expect(try h.machine.restore(r, now: h.now, wall: h.wall) == [.readTelemetry])
        #expect(h.machine.record == r)
        #expect(h.machine.telemetryRead(reading(), now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
        // Restoring it again changes nothing; another session is refused.
        #expect(try h.machine.restore(r, now: h.now, wall: h.wall) == [.wake(at: h.later(.milliseconds(250)))])
        #expect(throws: EpskcSessionMachine.OtherSessionOpen.self) { try h.machine.restore(record(), now: h.now, wall: h.wall) }
        // The journalled baseline is what later counters are compared with.
        h.advance(.milliseconds(250))
        let end = try #require(h.poll(reading(counters { $0.epskcDeactivationDisconnects = 1 })).ended)
        #expect(end.sessionID == r.sessionID && end.activatedAt == r.activatedAt && end.reason == .keyUsed)
        #expect(end.deactivatedAt == WallTime(secondsSinceEpoch: 1_700_000_010.25))
    }

    @Test func aSessionThatEndedWhileTheServiceWasDownIsSettledFromTheJourneyTheAgentKept() throws {
        var h = restarted(after: 100)
        let r = record(seconds: 60)
        #expect(try h.machine.restore(r, now: h.now, wall: h.wall) == [.readTelemetry])
        let directives = h.machine.telemetryRead(reading(counters { $0.epskcDeactivationTimeouts = 1 }, journey(.epskcTimeout, lived: 60_000)), now: h.now)
        let end = try #require(directives.ended)
        #expect(directives.last == .cancelWake)
        #expect(end.reason == .expired && end.detectedBy == .telemetry)
        #expect(end.deactivatedAt == WallTime(secondsSinceEpoch: 1_700_000_060))
        #expect(end.detectedAt == WallTime(secondsSinceEpoch: 1_700_000_100))
    }

    @Test func withoutTelemetryARestoredSessionPastItsDeadlineExpiresAtIt() throws {
        var h = restarted(after: 100)
        #expect(try h.machine.restore(record(seconds: 60), now: h.now, wall: h.wall) == [.readTelemetry])
        let end = try #require(h.machine.telemetryRead(.unavailable, now: h.now).ended)
        #expect(end.reason == .expired && end.detectedBy == .deadline)
        #expect(end.deactivatedAt == WallTime(secondsSinceEpoch: 1_700_000_060))
    }

    @Test func withoutTelemetryARestoredSessionWaitsForItsDeadline() throws {
        var h = restarted(after: 10)
        let r = record(seconds: 60)
        #expect(try h.machine.restore(r, now: h.now, wall: h.wall) == [.readTelemetry])
        // The agent has no telemetry: only the deadline (50 s away) plus its grace is left.
        #expect(h.machine.telemetryRead(.unavailable, now: h.now) == [.wake(at: h.later(.milliseconds(50_250)))])
        h.advance(.milliseconds(50_250))
        let end = try #require(h.machine.timerFired(now: h.now).ended)
        #expect(end.sessionID == r.sessionID && end.reason == .expired && end.detectedBy == .deadline)
    }

    @Test func aSessionWhoseAgentInstanceChangedEndsAtOnce() throws {
        var h = restarted(after: 10, agent: ":1.9")
        let directives = try h.machine.restore(record(instance: ":1.5"), now: h.now, wall: h.wall)
        let end = try #require(directives.ended)
        #expect(directives.last == .cancelWake)
        #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .routerRestarted)
        #expect(end.deactivatedAt == WallTime(secondsSinceEpoch: 1_700_000_010))
    }

    @Test func aSessionRestoredBeforeItsAgentIsSeenIsReadWhenTheSameInstanceAppears() throws {
        var h = restarted(after: 10, agent: nil)
        let r = record()
        // Offline: nothing to read; only the deadline is scheduled.
        #expect(try h.machine.restore(r, now: h.now, wall: h.wall) == [.wake(at: h.later(.milliseconds(50_250)))])
        let restoredAt = h.now
        h.advance(.milliseconds(40))
        // The instance that granted the key is still running: the session goes on and the overdue poll is due now.
        #expect(h.machine.agentAppeared(instance: ":1.5", now: h.now) == [.wake(at: restoredAt)])
        #expect(h.machine.timerFired(now: h.now) == [.readTelemetry])
        #expect(h.machine.telemetryRead(reading(), now: h.now) == [.wake(at: h.later(.milliseconds(250)))])
        #expect(h.machine.session?.id == r.sessionID)
    }

    @Test func aSessionRestoredBeforeItsAgentIsSeenEndsWhenAnotherInstanceAppears() throws {
        var h = restarted(after: 10, agent: nil)
        _ = try h.machine.restore(record(), now: h.now, wall: h.wall)
        let end = try #require(h.machine.agentAppeared(instance: ":1.7", now: h.now).ended)
        #expect(end.detectedBy == .routerRestarted && end.reason == .unspecified)
    }

    @Test func anAgentThatVanishesMidSessionEndsItByTheRulesOfTime() throws {
        var h = MachineHarness()
        let start = h.open(seconds: 2)
        h.advance(.seconds(1))
        let directives = h.machine.agentVanished(now: h.now)
        let end = try #require(directives.ended)
        #expect(directives.last == .cancelWake)
        #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .routerRestarted)
        #expect(end.deactivatedAt == start.activatedAt.advanced(by: .seconds(1)))
        // Off the bus, nothing is read; the agent's return is a new instance, asked about telemetry afresh.
        #expect(h.machine.readsTelemetry == false)
        #expect(h.machine.agentAppeared(instance: ":1.8", now: h.now) == [.cancelWake])
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [], readingFirst: true))

        // Vanishing after the deadline (the expiry not yet noticed) is expired.
        var late = MachineHarness()
        late.open(seconds: 2)
        late.advance(.milliseconds(2_100))
        #expect(late.machine.agentVanished(now: late.now).ended?.reason == .expired)
    }

    @Test func anotherInstanceEndsTheSessionAndMustSayAgainWhetherItHasTelemetry() throws {
        var h = MachineHarness()
        h.open(seconds: 60, baseline: .unavailable)
        // The agent was replaced without being seen leaving (a quick restart).
        let end = try #require(h.machine.agentAppeared(instance: ":1.6", now: h.now).ended)
        #expect(end.detectedBy == .routerRestarted)
        #expect(h.machine.telemetryAvailable == nil)
        #expect(h.machine.activationRequested() == EpskcCommandPlan(before: [], readingFirst: true))
    }

    @Test func theSameInstanceAgainChangesNothing() throws {
        var h = MachineHarness()
        h.open(seconds: 60, baseline: .unavailable)
        #expect(h.machine.agentAppeared(instance: ":1.5", now: h.now) == [.wake(at: h.later(.milliseconds(60_250)))])
        #expect(h.machine.telemetryAvailable == false && h.machine.session != nil)
    }
}
