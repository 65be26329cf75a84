import DBus
import MeshCoP
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// The ePSKc life cycle of OpenThread as the simulator plays it, and the telemetry that records it.
@Suite struct EpskcTests {
    func telemetry(_ env: SimEnvironment) async throws -> BorderAgentTelemetry {
        try await env.client.read(.borderAgentTelemetry)
    }

    @Test func aKeyIsUsedOnceAndTheTelemetryRecordsTheJourney() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            let key = try await env.client.activateEphemeralKeyMode()
            #expect(try await env.control("UseEphemeralKey", [.string(key.digits)]) == [.bool(true)])
            // The used key stops when the agent's disconnect guard runs out, not at the commissioner's close.
            try await eventually("the used key stopped") { try await env.epskcState() == "stopped" }
            // Single use: the same key no longer opens a session.
            #expect(try await env.control("UseEphemeralKey", [.string(key.digits)]) == [.bool(false)])
            let t = try await telemetry(env)
            let c = try #require(t.counters)
            #expect(c.epskcActivations == 1)
            #expect(c.epskcSecureSessionSuccesses == 1)
            #expect(c.epskcCommissionerPetitions == 1)
            #expect(c.mgmtActiveGets == 1)
            #expect(c.epskcDeactivationDisconnects == 1)
            #expect(c.epskcDeactivationClears == 0 && c.epskcDeactivationTimeouts == 0)
            let journey = try #require(t.journeys.first)
            #expect(t.journeys.count == 1)
            #expect(journey.deactivationReason == .remoteClose)
            #expect(journey.activated != nil && journey.connected != nil && journey.petitioned != nil)
            #expect(journey.retrievedActiveDataset != nil && journey.deactivated != nil)
            // Each completed journey is reported once.
            #expect(try await telemetry(env).journeys.isEmpty)
            // A new key can be activated now.
            _ = try await env.client.activateEphemeralKeyMode()
        }
    }

    @Test func tenFailedAttemptsEndTheKey() async throws {
        try await withSimulator { env throws in
            let key = try await env.client.activateEphemeralKeyMode()
            let wrong = key.digits == "000000000" ? "111111111" : "000000000"
            for attempt in 1...10 {
                #expect(try await env.control("UseEphemeralKey", [.string(wrong)]) == [.bool(false)])
                #expect(try await env.epskcState() == (attempt < 10 ? "started" : "stopped"))
            }
            #expect(try await env.control("UseEphemeralKey", [.string(key.digits)]) == [.bool(false)])
            let t = try await telemetry(env)
            #expect(t.counters?.epskcSecureSessionFailures == 10)
            #expect(t.counters?.epskcDeactivationMaxAttempts == 1)
            #expect(t.journeys.map(\.deactivationReason) == [.maxAttempts])
        }
    }

    @Test func aKeyExpiresAfterItsLifetime() async throws {
        try await withSimulator { env throws in
            _ = try await env.client.activateEphemeralKeyMode(lifetime: .milliseconds(150))
            #expect(try await env.epskcState() == "started")
            try await eventually("the key expired") { try await env.epskcState() == "stopped" }
            let t = try await telemetry(env)
            #expect(t.counters?.epskcDeactivationTimeouts == 1)
            let journey = try #require(t.journeys.first)
            #expect(journey.deactivationReason == .epskcTimeout)
            let lived = try #require(journey.deactivated) - (try #require(journey.activated))
            // Ended by its own 150 ms lifetime, not by the 120 s default (the upper bound leaves a loaded
            // machine's timers all the slack they need).
            #expect(lived >= 140 && lived < 60_000)
        }
    }

    @Test func anExpiringKeyDropsAConnectedSession() async throws {
        try await withSimulator { env throws in
            let key = try await env.client.activateEphemeralKeyMode(lifetime: .milliseconds(150))
            #expect(try await env.control("ConnectCommissioner", [.string(key.digits)]) == [.bool(true)])
            try await eventually("the key expired") { try await env.epskcState() == "stopped" }
            #expect(try await telemetry(env).journeys.map(\.deactivationReason) == [.epskcTimeout])
        }
    }

    @Test func deactivateAndDisablingAreLocalCloses() async throws {
        try await withSimulator { env throws in
            _ = try await env.client.activateEphemeralKeyMode()
            try await env.client.deactivateEphemeralKeyMode()
            _ = try await env.client.activateEphemeralKeyMode()
            try await env.client.setEphemeralKeyEnabled(false)
            #expect(try await env.epskcState() == "disabled")
            #expect(try await env.client.read(.ephemeralKeyEnabled) == false)
            let t = try await telemetry(env)
            #expect(t.counters?.epskcActivations == 2)
            #expect(t.counters?.epskcDeactivationClears == 2)
            #expect(t.journeys.map(\.deactivationReason) == [.localClose, .localClose])
        }
    }

    @Test func detachDoesNotStopAKeyAndActivationWorksWhileDisabled() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            _ = try await env.client.activateEphemeralKeyMode()
            try await env.client.detach()
            #expect(try await env.client.deviceRole() == .disabled)
            #expect(try await env.epskcState() == "started")
            try await env.client.deactivateEphemeralKeyMode()
            _ = try await env.client.activateEphemeralKeyMode()
            #expect(try await env.epskcState() == "started")
        }
    }

    @Test func retainedSessionKeepsTheKeyUntilTheCommissionerLeaves() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            let key = try await env.client.activateEphemeralKeyMode()
            #expect(try await env.control("ConnectCommissioner", [.string(key.digits)]) == [.bool(true)])
            #expect(try await env.epskcState() == "accepted")
            try await env.client.deactivateEphemeralKeyMode(retainActiveSession: true)
            #expect(try await env.epskcState() == "accepted")
            #expect(await otError { _ = try await env.client.activateEphemeralKeyMode() } == .busy)
            #expect(try await env.control("DisconnectCommissioner") == [.bool(true)])
            try await eventually("the used key stopped after the disconnect guard") { try await env.epskcState() == "stopped" }
            #expect(try await telemetry(env).journeys.map(\.deactivationReason) == [.remoteClose])
        }
    }

    @Test func endingAKeyEarlyLeavesNoTrace() async throws {
        try await withSimulator(configure: { $0.telemetryBuiltIn = false }) { env throws in
            _ = try await env.client.activateEphemeralKeyMode()
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            #expect(try await env.epskcState() == "stopped")
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(false)])
            #expect(await otError { _ = try await env.client.read(.telemetryData) } == .notImplemented)
            #expect(try await env.dbusSend.get("TelemetryData").errorName == "io.openthread.Error.NotImplemented")
        }
    }

    @Test func endingAKeyEarlyMovesNoCounter() async throws {
        try await withSimulator { env throws in
            _ = try await env.client.activateEphemeralKeyMode()
            let before = try #require(try await telemetry(env).counters)
            #expect(try await env.control("EndEphemeralKeyEarly") == [.bool(true)])
            let t = try await telemetry(env)
            #expect(t.counters == before)
            #expect(t.journeys.isEmpty)
        }
    }

    @Test func anUnfinishedJourneyIsReportedOnlyOnceItEnds() async throws {
        try await withSimulator { env throws in
            _ = try await env.client.activateEphemeralKeyMode()
            #expect(try await telemetry(env).journeys.isEmpty)
            try await env.client.deactivateEphemeralKeyMode()
            let journeys = try await telemetry(env).journeys
            #expect(journeys.count == 1)
            #expect(journeys.first?.activated != nil)
        }
    }

    @Test func crashingForgetsTheKeyAndTheCounters() async throws {
        try await withSimulator { env throws in
            _ = try await env.client.activateEphemeralKeyMode()
            let ready = try await env.client.readySignals()
            try await env.control("Crash", [.uint32(20)])
            _ = await collect(ready, count: 1)
            #expect(try await env.epskcState() == "stopped")
            #expect(try await telemetry(env).counters?.epskcActivations == 0)
        }
    }

    /// The agent answers calls in the order they came: a read sent together with an activation (or a
    /// deactivation) sees the counters before it, every time (tbrd's baseline depends on it).
    @Test func aReadSentWithTheActivationSeesTheCountersBeforeIt() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            for round in 0..<100 {
                let (read, key) = await env.client.activateEphemeralKeyMode(lifetime: .seconds(60), readingFirst: .borderAgentTelemetry)
                _ = try key.get()
                #expect(try read.get().counters?.epskcActivations == UInt32(round), "round \(round): the read saw the activation")
                let (check, stopped) = await env.client.deactivateEphemeralKeyMode(readingFirst: .borderAgentTelemetry)
                try stopped.get()
                #expect(try check.get().counters?.epskcDeactivationClears == UInt32(round), "round \(round): the read saw the deactivation")
            }
        }
    }
}
