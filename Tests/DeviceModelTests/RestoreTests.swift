import BorderRouterService
import DBus
import DeviceModel
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing
import RouterFleet
import InternetAccessPolicy

/// A service that restarts recovers an open ePSKc session from its journal and still reports its end,
/// end to end on a private bus with otbr-sim (the decisions, with exact times, are in
/// ``SessionMachineRestoreTests``). Waits are generous timeouts on conditions, never fixed sleeps.
@Suite struct RestoreTests {
    /// Runs `body` with a private bus and a simulated wpan0, and a factory of services on fresh connections.
    func withAgent(
        configure: (inout SimulatorConfiguration) -> Void = { _ in },
        _ body: (SimulatedAgent, () async throws -> (BorderRouterService, RecordingJournal, Connection)) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus throws in
            let agent = SimulatedAgent(configuration: fastConfiguration("wpan0", configure), bus: .address(bus.address))
            try await agent.start()
            var connections: [Connection] = []
            let make = { () async throws -> (BorderRouterService, RecordingJournal, Connection) in
                let connection = try await Connection(bus: .address(bus.address))
                connections.append(connection)
                let journal = RecordingJournal()
                let service = BorderRouterService(connection: connection, configuration: testServiceConfiguration(), eventSink: journal)
                return (service, journal, connection)
            }
            do { try await body(agent, make) } catch {
                await agent.stop()
                for c in connections { await c.close() }
                throw error
            }
            await agent.stop()
            for c in connections { await c.close() }
        }
    }

    /// The simulator's ePSKc state (`stopped`, `started`, …), read over `connection`.
    static func epskcState(on connection: Connection) async throws -> String {
        let control = RemoteObject(
            connection: connection, destination: "io.openthread.BorderRouter.wpan0", path: "/io/tbrd/Simulator/wpan0",
            interface: SimulatedAgent.controlInterfaceName)
        return try await control.property("EphemeralKeyState", as: String.self)
    }

    /// Activates a key of `seconds` through a first service, stops it, and returns the journalled record,
    /// the key and the wall time just before the key was asked for.
    func activateThenStop(_ make: () async throws -> (BorderRouterService, RecordingJournal, Connection), seconds: Int)
        async throws -> (EpskcSessionRecord, String, WallTime)
    {
        let (first, journal, _) = try await make()
        var requested = now()
        let key = try await first.withRunning { service in
            let mgmt = try #require(try await service.home.device(id: "wpan0").traits(ThreadNetworkManagementTrait.self))
            requested = now()
            let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: seconds))
            #expect(r.status == .success)
            #expect(await service.openEpskcSessions().map(\.sessionID) == [try #require(r.sessionID)])
            return try #require(r.epskc).digits
        }
        let record = try #require(journal.records.first)
        #expect(record.agentInstance != nil && record.telemetryBaseline != nil)
        return (record, key, requested)
    }

    @Test func aRestoredSessionStillReportsItsEnd() async throws {
        try await withAgent(configure: { $0.formed() }) { agent, make throws in
            let (record, key, _) = try await activateThenStop(make, seconds: 60)
            let (second, journal, connection) = try await make()
            try await second.withRunning { service in
                let events = Recorder(service.epskcEvents())
                try await service.restoreEpskcSession(record)
                try await service.restoreEpskcSession(record)  // again: nothing changes
                #expect(await service.openEpskcSessions() == [record])
                let control = RemoteObject(
                    connection: connection, destination: "io.openthread.BorderRouter.wpan0",
                    path: "/io/tbrd/Simulator/wpan0", interface: SimulatedAgent.controlInterfaceName)
                #expect(try await control.call("UseEphemeralKey", [.string(key)]) == [.bool(true)])
                let end = try #require(try await events.wait(for: 1).first?.deactivated)
                #expect(end.sessionID == record.sessionID && end.activatedAt == record.activatedAt)
                #expect(end.reason == .keyUsed && end.detectedBy == .telemetry)
                #expect(journal.events.count == 1 && end.sequenceNumber == 1)
                #expect(await service.openEpskcSessions().isEmpty)
            }
        }
    }

    @Test func aSessionThatEndedWhileTheServiceWasDownIsSettledAtOnce() async throws {
        try await withAgent { agent, make throws in
            let (record, _, requested) = try await activateThenStop(make, seconds: 1)
            let (second, _, connection) = try await make()
            try await eventually("the key expired while no service ran", timeout: .seconds(20)) {
                try await Self.epskcState(on: connection) == "stopped"
            }
            try await second.withRunning { service in
                let events = Recorder(service.epskcEvents())
                try await service.restoreEpskcSession(record)
                let end = try #require(try await events.wait(for: 1).first?.deactivated)
                // The agent kept the journey nobody had read: it says the key timed out, having lived its
                // second from the moment it was asked for (the agent counts whole milliseconds).
                #expect(end.reason == .expired && end.detectedBy == .telemetry)
                #expect(end.deactivatedAt >= requested.advanced(by: .milliseconds(999)))
                #expect(end.deactivatedAt <= end.detectedAt)
            }
        }
    }

    @Test func aSessionWhoseAgentRestartedMeanwhileEnds() async throws {
        try await withAgent { agent, make throws in
            let (record, _, _) = try await activateThenStop(make, seconds: 60)
            await agent.crash(restartAfter: .milliseconds(50))
            try await eventually("another agent instance runs", timeout: .seconds(20)) {
                guard let instance = await agent.uniqueName else { return false }
                return instance != record.agentInstance
            }
            let (second, _, _) = try await make()
            try await second.withRunning { service in
                let events = Recorder(service.epskcEvents())
                try await service.restoreEpskcSession(record)
                let end = try #require(try await events.wait(for: 1).first?.deactivated)
                #expect(end.reason == .unspecified && end.detail == .endedEarly && end.detectedBy == .routerRestarted)
            }
        }
    }

    @Test func aSessionRestoredBeforeTheServiceRunsIsFollowed() async throws {
        try await withAgent { agent, make throws in
            let (record, _, _) = try await activateThenStop(make, seconds: 60)
            let (second, _, _) = try await make()
            try await second.restoreEpskcSession(record)  // the router is not known yet: registered offline
            #expect(await second.routerSummaries().map(\.isOnline) == [false])
            try await second.withRunning { service in
                let events = Recorder(service.epskcEvents())
                #expect(await service.routerSummaries().map(\.isOnline) == [true])
                #expect(await service.openEpskcSessions() == [record])
                let mgmt = try #require(try await service.home.device(id: "wpan0").traits(ThreadNetworkManagementTrait.self))
                try await mgmt.deactivateEpskcMode()
                let end = try #require(try await events.wait(for: 1).first?.deactivated)
                #expect(end.sessionID == record.sessionID && end.reason == .cancelled)
            }
        }
    }

    @Test func aRestoreForAnotherSessionIsBusy() async throws {
        try await withService { env throws in
            let (_, mgmt) = try await env.management()
            #expect(await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 30)).status == .success)
            let stale = EpskcSessionRecord(
                deviceID: "wpan0", sessionID: .random(), activatedAt: now(), validDurationSeconds: 30)
            await #expect { try await env.service.restoreEpskcSession(stale) } throws: { ($0 as? HomeError)?.code == .busy }
            let bogus = EpskcSessionRecord(deviceID: "not an interface", sessionID: .random(), activatedAt: now(), validDurationSeconds: 30)
            await #expect { try await env.service.restoreEpskcSession(bogus) } throws: {
                ($0 as? HomeError)?.code == .invalidArgument
            }
            try await mgmt.deactivateEpskcMode()
        }
    }
}
