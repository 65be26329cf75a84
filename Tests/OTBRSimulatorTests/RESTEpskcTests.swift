import DBus
import HTTP
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import OpenThreadREST
import TBRFoundation
import TBRTestKit
import Testing

/// A key started over REST is the key D-Bus telemetry reports, and a commissioner's use of it shows
/// over REST as the real agent shows it: connected until the disconnect guard ends, then stopped.
@Suite struct RESTEpskcTests {
    func telemetry(_ env: RESTEnvironment) async throws -> BorderAgentTelemetry {
        try await env.dbus.read(.borderAgentTelemetry)
    }

    @Test func aKeyUsedByACommissionerReadsConnectedUntilTheGuardEnds() async throws {
        try await withRESTSimulator { env throws in
            #expect(try await env.rest.epskcEnabled())
            let grant = try await env.rest.startEpskc(lifetime: .seconds(120))
            #expect(grant.key.digits.count == 9 && grant.port != 0)
            do throws(RESTAgentError) {
                _ = try await env.rest.startEpskc(lifetime: .seconds(120))
                Issue.record("a second key was started")
            } catch {
                #expect(error.status == 409)
            }
            #expect(try await env.rest.epskcState() == RESTEpskcKeyState(state: .started, port: grant.port))
            #expect(try await env.epskcState() == "started", "D-Bus's simulator sees the same key")
            #expect(try await env.control("ConnectCommissioner", [.string(grant.key.digits)]) == [.bool(true)])
            // Not attached: no petition, so connected (not accepted).
            #expect(try await env.rest.epskcState() == RESTEpskcKeyState(state: .connected, port: grant.port))
            let closed = ContinuousClock.now
            #expect(try await env.control("DisconnectCommissioner") == [.bool(true)])
            let during = try await env.rest.epskcState()
            if ContinuousClock.now - closed < .milliseconds(300) {
                #expect(during.state == .connected, "the key stays connected during the disconnect guard")
            }
            try await eventually("the used key stopped") { try await env.rest.epskcState().state == .stopped }
            #expect(ContinuousClock.now - closed >= .milliseconds(300), "not before the guard ran out")
            #expect(try await env.rest.epskcState() == RESTEpskcKeyState(state: .stopped, port: 0))
            let t = try await telemetry(env)
            #expect(t.counters?.epskcActivations == 1 && t.counters?.epskcDeactivationDisconnects == 1)
            #expect(t.journeys.map(\.deactivationReason) == [.remoteClose])
        }
    }

    @Test func keysStartAndStopOverRESTAsOverDBus() async throws {
        try await withRESTSimulator { env throws in
            // A key from D-Bus is seen and stopped over REST.
            _ = try await env.dbus.activateEphemeralKeyMode()
            #expect(try await env.rest.epskcState().state == .started)
            try await env.rest.stopEpskc()
            #expect(try await env.rest.epskcState() == RESTEpskcKeyState(state: .stopped, port: 0))
            try await env.rest.stopEpskc()
            // No body, a port asked for, a lifetime of 0 (the default).
            let bare = try await env.send("POST", "/node/ba-epskc/key")
            #expect(bare.status == 200)
            try await env.rest.stopEpskc()
            let ported = try await env.send("POST", "/node/ba-epskc/key", body: #"{"lifetime": 0, "port": 4242}"#)
            #expect(try JSON(parsing: ported.text)["port"] == 4242)
            #expect(try await env.rest.epskcState().port == 4242)
            try await env.rest.stopEpskc()
            for bad in [#"{"lifetime": 600001}"#, #"{"lifetime": -1}"#, #"{"port": 70000}"#, #"{"lifetime": "5"}"#, "[]", "{"] {
                #expect(try await env.send("POST", "/node/ba-epskc/key", body: bad).status == 400, "\(bad)")
            }
            let t = try await telemetry(env)
            #expect(t.counters?.epskcActivations == 3 && t.counters?.epskcDeactivationClears == 3)
            #expect(t.journeys.map(\.deactivationReason) == [.localClose, .localClose, .localClose])
        }
    }

    @Test func theFeatureSwitchIsDBusesEphemeralKeyEnabled() async throws {
        try await withRESTSimulator { env throws in
            let grant = try await env.rest.startEpskc(lifetime: .seconds(60))
            #expect(try await env.send("PUT", "/node/ba-epskc/state", body: #""disable""#).status == 200)
            #expect(try await env.rest.epskcEnabled() == false)
            #expect(try await env.dbus.read(.ephemeralKeyEnabled) == false)
            #expect(try await env.rest.epskcState() == RESTEpskcKeyState(state: .disabled, port: 0))
            #expect(try await env.send("POST", "/node/ba-epskc/key", body: "{}").status == 409)
            #expect(try await env.send("PUT", "/node/ba-epskc/state", body: #""off""#).status == 400)
            try await env.dbus.setEphemeralKeyEnabled(true)
            #expect(try await env.rest.epskcEnabled())
            #expect(try await env.rest.startEpskc(lifetime: .seconds(60)).key != grant.key)
        }
    }

    @Test func theLifetimeEndsTheKeyAlsoDuringTheGuard() async throws {
        // A manual clock: the guard and the lifetime run only when the test says, whatever the load.
        let clock = ManualClock()
        try await withRESTSimulator(configure: { $0.disconnectGuard = .seconds(30) }, clock: clock) { env throws in
            let grant = try await env.rest.startEpskc(lifetime: .milliseconds(400))
            #expect(try await env.control("ConnectCommissioner", [.string(grant.key.digits)]) == [.bool(true)])
            #expect(try await env.control("DisconnectCommissioner") == [.bool(true)])
            let during = try await env.rest.epskcState().state
            #expect(during == .accepted || during == .connected, "the guard keeps the used key")
            try await eventually("the lifetime and the guard are waited for", wakingOn: clock.wakeups) { clock.sleeperCount >= 2 }
            clock.advance(by: .milliseconds(400))
            try await eventually("the key's lifetime ended it") { try await env.rest.epskcState().state == .stopped }
            #expect(try await telemetry(env).journeys.map(\.deactivationReason) == [.epskcTimeout])
        }
    }
}
