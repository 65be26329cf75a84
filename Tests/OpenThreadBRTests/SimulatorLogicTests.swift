import MeshCoP
import OpenThreadBR
import Testing

@testable import OTBRSimulator

/// The simulator's sans-IO parts, without a bus.
@Suite struct SimulatorLogicTests {
    @Test func epskcStateMachine() {
        var m = EphemeralKeyManager(enabled: true)
        #expect(m.state == .stopped)
        guard case .success(.start(let lifetime, let generation)) = m.start(key: "123456789", lifetimeMs: 0, now: 5) else {
            Issue.record("start failed")
            return
        }
        #expect(lifetime == .milliseconds(120_000))
        #expect(m.start(key: "987654321", lifetimeMs: 0, now: 6) == .failure(.invalidState))
        #expect(m.counters.epskcInvalidBaStateErrors == 1)
        // A stale timer of another key does nothing.
        #expect(m.expire(generation: generation &+ 1, now: 7) == .none)
        #expect(m.handshake(with: "123456789", now: 8).connected)
        #expect(m.state == .connected)
        m.petitionAccepted(now: 9)
        #expect(m.state == .accepted)
        // The used key waits out the disconnect guard, still accepted; a second close changes nothing.
        #expect(m.peerDisconnected(now: 10) == (true, .startGuard(generation: generation)))
        #expect(m.state == .accepted)
        #expect(m.peerDisconnected(now: 10) == (false, .none))
        #expect(m.guardElapsed(generation: generation &+ 1, now: 11) == .none)
        #expect(m.guardElapsed(generation: generation, now: 12) == .cancel)
        #expect(m.state == .stopped && m.counters.epskcDeactivationDisconnects == 1)
        #expect(m.history.retrieveCompletedJourneys().first?.deactivationReason == .remoteClose)
        // Clamped lifetime and key length checks of OpenThread's Start.
        guard case .success(.start(let clamped, _)) = m.start(key: "123456", lifetimeMs: 900_000, now: 20) else {
            Issue.record("start failed")
            return
        }
        #expect(clamped == .milliseconds(600_000))
        _ = m.stop(.localDisconnect, now: 21)
        #expect(m.start(key: "12345", lifetimeMs: 0, now: 22) == .failure(.invalidArgs))
        #expect(m.counters.epskcInvalidArgsErrors == 1)
        #expect(m.setEnabled(false, now: 23) == .none)
        #expect(m.state == .disabled)
    }

    @Test func theLifetimeEndsAKeyDuringItsDisconnectGuard() {
        var m = EphemeralKeyManager(enabled: true)
        guard case .success(.start(_, let generation)) = m.start(key: "123456789", lifetimeMs: 1000, now: 0) else {
            Issue.record("start failed")
            return
        }
        #expect(m.handshake(with: "123456789", now: 1).connected)
        #expect(m.peerDisconnected(now: 2).timer == .startGuard(generation: generation))
        #expect(m.expire(generation: generation, now: 1000) == .cancel)
        #expect(m.counters.epskcDeactivationTimeouts == 1 && m.counters.epskcDeactivationDisconnects == 0)
        // The guard's timer, had it fired after all, finds nothing to stop.
        #expect(m.guardElapsed(generation: generation, now: 2002) == .none)
        #expect(m.history.retrieveCompletedJourneys().map(\.deactivationReason) == [.epskcTimeout])
    }

    @Test func historyReportsCompletedJourneysOnce() {
        var h = EpskcHistory()
        h.record(.activated, at: 1)
        h.record(.deactivated(.localClose), at: 2)
        h.record(.activated, at: 3)
        #expect(h.retrieveCompletedJourneys().count == 1)
        #expect(h.retrieveCompletedJourneys().isEmpty)
        h.record(.connected, at: 4)
        h.record(.deactivated(.remoteClose), at: 5)
        let second = h.retrieveCompletedJourneys()
        #expect(second.count == 1)
        #expect(second.first?.activated == 3 && second.first?.connected == 4 && second.first?.deactivated == 5)
        for i in 0..<200 { h.record(i % 2 == 0 ? .activated : .deactivated(.epskcTimeout), at: UInt32(10 + i)) }
        #expect(h.retrieveCompletedJourneys().count == EpskcHistory.capacity / 2)
    }

    @Test func datasetRules() throws {
        let a = sampleDataset
        var moved = try OperationalDataset(bytes: a)
        moved.networkName = NetworkName("Other")
        #expect(!DatasetRules.affectsConnectivity(moved.encoded(), current: a))
        moved.channel = Channel(25)
        #expect(DatasetRules.affectsConnectivity(moved.encoded(), current: a))
        #expect(!DatasetRules.affectsConnectivity(moved.encoded(), current: nil))
        let migrating = try #require(DatasetRules.forMigration(a, delayMs: 300_000, wallTime: 1_700_000_000.5))
        let decoded = try OperationalDataset(bytes: migrating)
        #expect(decoded.delayTimer == DelayTimer(milliseconds: 300_000))
        #expect(decoded.pendingTimestamp?.seconds == 1_700_000_000)
        #expect(decoded.pendingTimestamp?.ticks == 16384)
        #expect(DatasetRules.forMigration(migrating, delayMs: 1, wallTime: 0) == nil)
        #expect(DatasetRules.activated(fromPending: migrating) == a)
        #expect(DatasetRules.sameTLVs(a, a) && DatasetRules.sameNetwork(a, a))
    }
}
