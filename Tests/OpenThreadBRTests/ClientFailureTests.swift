import DBus
@testable import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// How the client reports failures: error names mapped to causes, and an agent that is absent, crashes
/// mid-call, or is refused by the policy.
@Suite struct ClientFailureTests {
    @Test func everyOpenThreadErrorNameMapsToItsCase() throws {
        #expect(OpenThreadError.allCases.count == 35)
        for e in OpenThreadError.allCases {
            #expect(OpenThreadError(errorName: e.errorName) == e)
            #expect(AgentError.Cause(DBusError(e.errorName)) == .openThread(e))
        }
        #expect(OpenThreadError.notLowpanDataFrame.errorName == "io.openthread.Error.NonLowpanDatatFrame")
        #expect(OpenThreadError.fcs.errorName == "io.openthread.Error.FcsErr")
        #expect(OpenThreadError.ip6AddressCreationFailure.errorName == "io.openthread.Error.Ipv6AddressCreationFailure")
        // An error reply named OK is a failure like any other.
        #expect(AgentError.Cause(DBusError("io.openthread.Error.OK")) == .openThread(.ok))
        #expect(AgentError.Cause(DBusError("io.openthread.Error.Pending")) == .unknownOpenThreadError("io.openthread.Error.Pending"))
        #expect(AgentError.Cause(DBusError(.serviceUnknown)) == .notRunning)
        #expect(AgentError.Cause(DBusError(.nameHasNoOwner)) == .notRunning)
        #expect(AgentError.Cause(DBusError(.accessDenied)) == .accessDenied)
        #expect(AgentError.Cause(DBusError(.unknownMethod)) == .notSupported)
        #expect(AgentError.Cause(DBusError(.unknownObject)) == .notSupported)
        #expect(AgentError.Cause(DBusError(.noReply, "no reply within 25 seconds")) == .timedOut)
        #expect(
            AgentError.Cause(DBusError(.noReply, "Message recipient disconnected from message bus without replying"))
                == .agentExited)
        let e = AgentError(interfaceName: "wpan0", operation: "ActivateEphemeralKeyMode", cause: .notRunning)
        #expect(e.description == "ActivateEphemeralKeyMode on wpan0 failed: otbr-agent for wpan0 is not running")
        let denied = AgentError(interfaceName: "wpan1", operation: "Detach", cause: .accessDenied)
        #expect(denied.description.contains("permission denied by the D-Bus policy"))
        let unsupported = AgentError(interfaceName: "wpan0", operation: "Join", cause: .notSupported)
        #expect(unsupported.description.contains("not supported by this otbr-agent build"))
    }

    @Test func anAgentThatIsNotRunning() async throws {
        try await withPrivateBus { bus throws in
            let connection = try await Connection(bus: .address(bus.address))
            let client = BorderRouterAgent(connection: connection, interfaceName: "wpan7")
            let error = await #expect(throws: AgentError.self) { _ = try await client.deviceRole() }
            #expect(error?.cause == .notRunning)
            #expect(error?.description == "Get DeviceRole on wpan7 failed: otbr-agent for wpan7 is not running")
            #expect(await agentCause { _ = try await client.activateEphemeralKeyMode() } == .notRunning)
            // Streams still subscribe; presence says it is not running; discovery finds nothing.
            let presence = try await client.presence()
            #expect(await collect(presence, count: 1) == [.notRunning])
            #expect(try await AgentDiscovery(connection: connection).agents().isEmpty)
            await connection.close()
        }
    }

    @Test func theAgentCrashingMidCallFailsTheCallPromptly() async throws {
        try await withSimulator(configure: { $0.restartDelay = .seconds(30) }) { env throws in
            let patient = {
                var c = env.client
                c.networkTimeout = .seconds(20)
                return c
            }()
            // Attach() without a dataset never replies; the crash ends the wait (agentExited, not the 20 s
            // timeout's timedOut).
            async let attach: AgentError.Cause? = agentCause { try await patient.attach() }
            try await eventually("the agent holds the Attach call") { await env.agent.runtime.attach != nil }
            await env.agent.crash(restartAfter: .seconds(30))
            #expect(await attach == .agentExited)
            #expect(await agentCause { _ = try await env.client.deviceRole() } == .notRunning)
        }
    }

    @Test func theAgentCrashingAndComingBackIsSeenByStreams() async throws {
        try await withSimulator { env throws in
            let discovery = try await AgentDiscovery(connection: env.connection).events()
            try await env.control("Crash", [.uint32(50)])
            let events = await collect(discovery, count: 3)
            guard events.count == 3, case .appeared("wpan0", let first) = events[0],
                case .appeared("wpan0", let second) = events[2]
            else {
                Issue.record("unexpected events \(events)")
                return
            }
            #expect(events[1] == .vanished("wpan0"))
            #expect(first != second)
        }
    }

    @Test func accessDeniedByThePolicy() async throws {
        let policy = """
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <deny send_destination="io.openthread.BorderRouter.wpan0" send_interface="io.openthread.BorderRouter"
                      send_member="FactoryReset"/>
              </policy>
            """
        try await withSimulator(policy: policy) { env throws in
            let error = await #expect(throws: AgentError.self) { try await env.client.factoryReset() }
            #expect(error?.cause == .accessDenied)
            #expect(error?.description.contains("permission denied by the D-Bus policy") == true)
            let role = try await env.client.deviceRole()
            #expect(role == .disabled)
        }
    }

    @Test func aBuildWithoutEpskcAnswersUnknownMethod() async throws {
        try await withSimulator(configure: { $0.epskcBuiltIn = false }) { env throws in
            #expect(await agentCause { _ = try await env.client.activateEphemeralKeyMode() } == .notSupported)
            #expect(await otError { _ = try await env.client.read(.ephemeralKeyEnabled) } == .notFound)
            let r = try await env.dbusSend.call("DeactivateEphemeralKeyMode", ["boolean:false"])
            #expect(r.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
        }
    }

    @Test func discoveryListsEveryAgentOnTheBus() async throws {
        try await withPrivateBus { bus throws in
            let agents = [SimulatedAgent(configuration: fastConfiguration("wpan0"), bus: .address(bus.address)),
                          SimulatedAgent(configuration: fastConfiguration("wpan1"), bus: .address(bus.address))]
            for agent in agents { try await agent.start() }
            let connection = try await Connection(bus: .address(bus.address))
            #expect(try await AgentDiscovery(connection: connection).agents() == ["wpan0", "wpan1"])
            // Each answers for itself.
            let c1 = BorderRouterAgent(connection: connection, interfaceName: "wpan1")
            _ = try await c1.activateEphemeralKeyMode()
            #expect(await otError { _ = try await c1.activateEphemeralKeyMode() } == .busy)
            _ = try await BorderRouterAgent(connection: connection, interfaceName: "wpan0").activateEphemeralKeyMode()
            await agents[0].stop()
            #expect(try await AgentDiscovery(connection: connection).agents() == ["wpan1"])
            await agents[1].stop()
            await connection.close()
        }
    }
}
