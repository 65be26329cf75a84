import BorderRouterService
import DBus
import DeviceModel
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// The statuses of `activateEpskcMode`, each from the path that produces it.
@Suite struct ActivationStatusTests {
    @Test func aSecondActivationIsBusyAndLeavesTheFirstAlone() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            let events = Recorder(mgmt.epskcEvents())
            let first = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60))
            #expect(first.status == .success)
            let second = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 60))
            #expect(second.status == .busy)
            #expect(second.epskc == nil && second.sessionID == nil && second.validDurationSeconds == 0)
            #expect(second.message?.contains("io.openthread.Error.Busy") == true)
            // The first session goes on: the refused activation ended nothing, and the key still works.
            #expect(env.journal.events.count == 1)
            #expect(await env.service.openEpskcSessions().map(\.sessionID) == [first.sessionID])
            let key = try #require(first.epskc)
            #expect(try await env.control("UseEphemeralKey", [.string(key.digits)]) == [.bool(true)])
            let got = try await events.wait(for: 2)
            #expect(got.last?.deactivated?.sessionID == first.sessionID)
            #expect(got.last?.deactivated?.reason == .keyUsed)
        }
    }

    @Test func anAgentWithoutEpskcIsNotSupported() async throws {
        try await withService(configure: { _, c in c.epskcBuiltIn = false }) { env throws in
            let (_, mgmt) = try await env.management()
            let r = await mgmt.activateEpskcMode()
            #expect(r.status == .notSupported)
            #expect(r.message?.contains("wpan0") == true)
            await #expect(throws: HomeError.self) { try await mgmt.deactivateEpskcMode() }
        }
    }

    @Test func anAgentWithTheFeatureOffIsNotSupported() async throws {
        try await withService(configure: { _, c in c.epskcEnabledAtStart = false }) { env throws in
            let (_, mgmt) = try await env.management()
            #expect(!mgmt.supports(.activateEpskcMode))
            #expect(await mgmt.activateEpskcMode().status == .notSupported)  // NotCapable
        }
    }

    @Test func durationsOutsideOneToSixHundredAreRefusedBeforeAnyCall() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            for seconds in [0, 601, -1] {
                let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: seconds))
                #expect(r.status == .invalidArgument)
                #expect(r.message?.contains("1…600 seconds") == true)
            }
            // The agent saw nothing: no key, no counter moved.
            #expect(try await env.epskcState() == "stopped")
            let telemetry = try await env.client().read(.borderAgentTelemetry)
            #expect(telemetry.counters?.epskcActivations == 0 && telemetry.counters?.epskcInvalidArgsErrors == 0)
            // With the agent gone, a valid request needs the agent (failed) but an invalid one does not.
            await env.agent().stop()
            try await eventually("the router is offline") { !(try await env.home.device(id: "wpan0").isOnline) }
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 0)).status == .invalidArgument)
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 601)).status == .invalidArgument)
            let offline = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 30))
            #expect(offline.status == .failed)
            #expect(offline.message?.contains("not running") == true)
        }
    }

    @Test func notBeingAttachedIsForTheAgentToRefuse() async throws {
        // otbr-agent starts a key whatever the role; the service does not invent `invalidState`.
        try await withService { env throws in
            #expect(try await env.client().deviceRole() == .disabled)
            let (_, mgmt) = try await env.management()
            let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 10))
            #expect(r.status == .success)
            try await mgmt.deactivateEpskcMode()
        }
    }

    @Test func agentErrorsMapToStatuses() {
        func status(_ cause: AgentError.Cause) -> Mgmt.ActivateEpskcModeStatus {
            let error = AgentError(interfaceName: "wpan0", operation: "ActivateEphemeralKeyMode", cause: cause)
            return BorderRouterService.activationStatus(for: error)
        }
        #expect(status(.openThread(.busy)) == .busy)
        #expect(status(.openThread(.notCapable)) == .notSupported)
        #expect(status(.notSupported) == .notSupported)
        #expect(status(.openThread(.invalidState)) == .invalidState)
        #expect(status(.openThread(.invalidArgs)) == .invalidArgument)
        #expect(status(.openThread(.failed)) == .failed)
        #expect(status(.notRunning) == .failed)
        #expect(status(.timedOut) == .failed)
    }
}
