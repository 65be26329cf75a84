import DBus
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// `LeaveNetwork`: the agent replies, drops off the bus, and comes back with `Ready`, role disabled,
/// no dataset and a new Border Agent ID; the client's `leaveNetwork` returns only then.
@Suite struct LeaveNetworkTests {
    @Test func leaveNetworkRestartsTheAgentAndTheClientWaitsForIt() async throws {
        try await withSimulator(configure: { $0.restartDelay = .milliseconds(300) }) { env throws in
            try await env.formNetwork()
            let oldID = try await env.client.read(.borderAgentID)
            let oldOwner = try #require(try await env.connection.nameOwner(of: env.name.busName))
            let presence = try await env.client.presence()
            let start = ContinuousClock.now
            try await env.client.leaveNetwork()
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            let newOwner = try #require(try await env.connection.nameOwner(of: env.name.busName))
            #expect(newOwner != oldOwner)
            let events = await collect(presence, count: 3)
            #expect(events == [.running(owner: oldOwner), .notRunning, .running(owner: newOwner)])
            #expect(try await env.client.deviceRole() == .disabled)
            #expect(try await env.client.activeDatasetTLVs() == nil)
            #expect(try await env.client.read(.borderAgentID) != oldID)
        }
    }

    @Test func leaveNetworkThroughDBusSendRepliesThenTheNameVanishesWithoutARoleSignal() async throws {
        try await withSimulator(configure: { $0.restartDelay = .milliseconds(400) }) { env throws in
            try await env.formNetwork()
            let changes = try await env.client.propertyChanges()
            let ready = try await env.client.readySignals()
            let r = try await env.dbusSend.call("LeaveNetwork")
            #expect(r.status == 0)
            try await eventually("the name is gone", wakingOn: env.connection.ownerWakeups(of: env.name.busName)) { try await env.connection.nameOwner(of: env.name.busName) == nil }
            // Calls in between fail as the real agent's do: nobody owns the name.
            #expect(try await env.dbusSend.get("DeviceRole").errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
            #expect(await agentCause { _ = try await env.client.deviceRole() } == .notRunning)
            #expect(await collect(ready, count: 1).count == 1)
            // The agent exits without a DeviceRole signal.
            #expect(await collect(changes, count: 1, timeout: .milliseconds(100)).isEmpty)
        }
    }

    /// The wait for the agent is a TimeLimit on the client's clock: it times out when that clock
    /// passes the timeout, not before.
    @Test func leaveNetworkTimesOutWhenTheAgentDoesNotComeBack() async throws {
        try await withSimulator(configure: { $0.restartDelay = .seconds(30) }) { env throws in
            let clock = ManualClock()
            var client = env.client
            client.clock = clock
            let start = clock.now()
            let leave = Task { await agentCause { try await client.leaveNetwork(timeout: .seconds(20)) } }
            try await eventually("the client waits for the agent", wakingOn: clock.wakeups) { clock.sleepingUntil == [start.advanced(by: .seconds(20))] }
            clock.advance(by: .seconds(19))
            #expect(clock.sleeperCount == 1, "19 s in, the client still waits")
            clock.advance(by: .seconds(1))
            #expect(await leave.value == .timedOut)
        }
    }

    /// A caller that gives up is told so: `cancelled`, not a timeout it never reached.
    @Test func aCancelledLeaveIsCancelledNotTimedOut() async throws {
        try await withSimulator(configure: { $0.restartDelay = .seconds(30) }) { env throws in
            let clock = ManualClock()
            var client = env.client
            client.clock = clock
            let leave = Task { await agentCause { try await client.leaveNetwork(timeout: .seconds(20)) } }
            try await eventually("the client waits for the agent", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
            leave.cancel()
            #expect(await leave.value == .cancelled)
        }
    }
}
