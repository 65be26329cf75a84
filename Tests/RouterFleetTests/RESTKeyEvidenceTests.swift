@testable import RouterFleet
import DeviceModel
import OpenThreadREST
import TBRTestKit
import Testing

/// A border router reached through REST has no telemetry: the session machine reads the key's state
/// (`GET /node/ba-epskc/key`) through ``RESTKeyEvidence`` instead, and must still give every end its
/// reason: `keyUsed` when the key was seen `connected`/`accepted`, `expired` at the deadline, `cancelled`
/// when tbrd deleted it, `unspecified`/`endedEarly` when it vanished early with nothing to say why.
@Suite struct RESTKeyEvidenceTests {
    /// The machine of a router whose agent answers over REST, and the evidence its reads go through.
    struct Rig {
        var h = MachineHarness(agent: "rest:http://192.0.2.2:8081")
        var evidence = RESTKeyEvidence()

        mutating func read(_ state: RESTEpskcKeyState.State) -> TelemetryResult {
            .read(evidence.reading(after: RESTEpskcKeyState(state: state, port: state == .stopped ? 0 : 49155)))
        }

        /// Opens a session the way the router does: the baseline read finds no key.
        mutating func open(seconds: Int) -> ThreadNetworkManagementTrait.EpskcModeActivatedEvent {
            let baseline = read(.stopped)
            return h.open(seconds: seconds, baseline: baseline)
        }

        /// Polls until the machine ends the session or `limit` polls went by, answering with `states` in
        /// turn (the last one repeated).
        mutating func poll(_ states: [RESTEpskcKeyState.State]) -> ThreadNetworkManagementTrait.EpskcModeDeactivatedEvent? {
            for i in 0..<40 {
                h.advance(.milliseconds(250))
                let state = states[min(i, states.count - 1)]
                let result = read(state)
                if let ended = h.poll(result).ended { return ended }
            }
            return nil
        }
    }

    @Test func aKeySeenConnectedThenStoppedWasUsed() throws {
        var rig = Rig()
        let start = rig.open(seconds: 60)
        let polled1 = rig.poll([.started, .connected, .connected, .stopped])
        let end = try #require(polled1)
        #expect(end.sessionID == start.sessionID && end.reason == .keyUsed && end.detectedBy == .telemetry)
    }

    @Test func aKeySeenAcceptedThenStoppedWasUsedToo() throws {
        var rig = Rig()
        _ = rig.open(seconds: 60)
        let polled2 = rig.poll([.accepted, .stopped])
        #expect(try #require(polled2).reason == .keyUsed)
    }

    @Test func aKeyThatVanishesEarlyWithoutUseEndedEarlyForNoKnownReason() throws {
        var rig = Rig()
        _ = rig.open(seconds: 60)
        let polled3 = rig.poll([.started, .started, .stopped])
        let end = try #require(polled3)
        #expect(end.reason == .unspecified && end.detail == .endedEarly)
    }

    @Test func aKeyStillStartedAtItsDeadlineThenStoppedExpired() throws {
        var rig = Rig()
        _ = rig.open(seconds: 2)
        // Started for 2 s, then gone: at or after the deadline, so it expired.
        let polled4 = rig.poll(Array(repeating: .started, count: 8) + [.stopped])
        let end = try #require(polled4)
        #expect(end.reason == .expired)
    }

    @Test func useSeenBeforeAnEarlierEndDoesNotMakeTheNextKeyUsed() throws {
        var rig = Rig()
        _ = rig.open(seconds: 60)
        let polled5 = rig.poll([.connected, .stopped])
        #expect(try #require(polled5).reason == .keyUsed)
        _ = rig.open(seconds: 60)
        let polled6 = rig.poll([.started, .stopped])
        let second = try #require(polled6)
        #expect(second.reason == .unspecified && second.detail == .endedEarly)
    }

    @Test func aDeactivationByTbrdIsCancelledWhateverTheStateSays() throws {
        var rig = Rig()
        _ = rig.open(seconds: 60)
        #expect(rig.h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [], readingFirst: true))
        _ = rig.h.machine.telemetryRead(rig.read(.started), now: rig.h.now)
        let end = try #require(rig.h.machine.deactivationSucceeded(now: rig.h.now).ended)
        #expect(end.reason == .cancelled)
    }
}

extension RESTKeyEvidenceTests {
    @Test func aKeySeenByAPollJustBeforeTbrdDeletedItOpensNoSessionAfterItsEnd() throws {
        var rig = Rig()
        _ = rig.open(seconds: 60)
        #expect(rig.h.machine.deactivationRequested(retainActiveSession: false) == EpskcCommandPlan(before: [], readingFirst: true))
        _ = rig.h.machine.telemetryRead(rig.read(.started), now: rig.h.now)
        #expect(rig.h.machine.deactivationSucceeded(now: rig.h.now).ended?.reason == .cancelled)
        // The poll that saw the key started is handled now: the machine reads the state, which says no key.
        let key = EpskcSessionMachine.Grant(id: .random(), validSeconds: 0, now: rig.h.now, wall: rig.h.wall)
        #expect(rig.h.machine.serviceAppeared(key, now: rig.h.now) == [.readTelemetry])
        _ = rig.h.machine.telemetryRead(rig.read(.stopped), now: rig.h.now)
        #expect(rig.h.machine.session == nil, "no phantom session")
        // Someone else's key that is really there opens one.
        #expect(rig.h.machine.serviceAppeared(key, now: rig.h.now) == [.readTelemetry])
        let opened = rig.h.machine.telemetryRead(rig.read(.started), now: rig.h.now)
        #expect(opened.started?.validDurationSeconds == 0 && rig.h.machine.session != nil)
    }
}
