import DBus
import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How tbrd stops: `io.tbrd` is released first, calls in flight finish (within `shutdown-timeout`),
/// later calls are refused, then the connection closes and tbrd exits 0.
@Suite struct ShutdownTests {
    /// Starts a `LeaveNetwork` through tbrd on wpan0 and returns once otbr-agent has left the bus (the
    /// call then waits for the agent to come back, `restartDelayMs` later).
    static func leaveInFlight(_ env: DaemonEnvironment) async throws -> Task<Result<[DBusValue], any Error>, Never> {
        try await eventually("wpan0 is a leader", wakingOn: env.router("wpan0").wakeups) { try await env.router("wpan0").property("Role", as: String.self) == "leader" }
        let router = env.router("wpan0")
        let leave = Task { () -> Result<[DBusValue], any Error> in
            do { return .success(try await router.call("LeaveNetwork", timeout: .seconds(60))) } catch { return .failure(error) }
        }
        try await eventually("the agent left the bus", timeout: .seconds(10), wakingOn: env.client.ownerWakeups(of: "io.openthread.BorderRouter.wpan0")) {
            try await env.client.nameOwner(of: "io.openthread.BorderRouter.wpan0") == nil
        }
        return leave
    }

    @Test func aStopReleasesTheNameFirstThenLetsCallsInFlightFinish() async throws {
        try await withDaemon { env throws in
            // The agent comes back only when the test starts it again (below), so the call stays in
            // flight however slowly this machine runs.
            try await env.startSimulator(["wpan0"], restartDelayMs: 600_000)
            // A generous bound: this test is about the order of the steps, not the bound.
            try await env.startDaemon(try env.configuration("shutdown-timeout = 60\n"))
            let daemon = try #require(env.daemon)
            let tbrd = try #require(try await env.client.nameOwner(of: "io.tbrd"))
            let leave = try await Self.leaveInFlight(env)

            kill(daemon.pid, SIGTERM)
            try await eventually("io.tbrd is released", wakingOn: env.client.ownerWakeups(of: "io.tbrd")) { try await env.client.nameOwner(of: "io.tbrd") == nil }
            #expect(daemon.isRunning, "tbrd must still be serving the call in flight")
            // A call that reaches tbrd by its unique name meanwhile is refused with a sentence.
            await #expect {
                try await env.client.call(
                    destination: try BusName(tbrd), path: "/io/tbrd", interface: "io.tbrd.Manager1", member: "ListStructures")
            } throws: { error in
                (error as? DBusError)?.name.rawValue == "io.tbrd.Error.Unavailable"
                    && (error as? DBusError)?.message == "tbrd is stopping"
            }
            // The call in flight gets its reply once the agent is back: a new otbr-agent process for wpan0.
            let back = try TestProcess(
                try Executables.product("otbr-sim"), ["--bus", env.address, "--dataset", demoDataset, "--interface", "wpan0"],
                directory: env.directory)
            defer { kill(back.pid, SIGKILL) }
            let started = ContinuousClock.now
            let reply = try await leave.value.get()
            #expect(reply.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(30), "the leave took \(ContinuousClock.now - started); tbrd's log: \(daemon.stderr)")
            #expect(try await daemon.waitForExit() == 0)
            env.daemon = nil
            env.logs.append(daemon.stderr)
            #expect(daemon.stderr.contains("waiting for calls in flight calls=1"))
        }
    }

    @Test func callsThatOutliveTheShutdownTimeoutAreCutOff() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"], restartDelayMs: 20_000)
            try await env.startDaemon(try env.configuration("shutdown-timeout = 1\n"))
            let daemon = try #require(env.daemon)
            let leave = try await Self.leaveInFlight(env)
            let stopped = ContinuousClock.now
            kill(daemon.pid, SIGTERM)
            #expect(try await daemon.waitForExit(timeout: .seconds(10)) == 0)
            #expect(ContinuousClock.now - stopped < .seconds(8), "tbrd waited for the call beyond its bound")
            env.daemon = nil
            env.logs.append(daemon.stderr)
            #expect(daemon.stderr.contains("calls still running are cut off"))
            // The caller is told (by the bus) that tbrd went away without replying.
            if case .success = await leave.value { Issue.record("the cut-off call reported success") }
        }
    }
}

extension ShutdownTests {
    @Test func theBusGoingAwayIsExit69WithASentence() async throws {
        try await withDaemon { env throws in
            try await env.startDaemon()
            let daemon = try #require(env.daemon)
            env.bus.stop()
            #expect(try await daemon.waitForExit(timeout: .seconds(20)) == 69)
            env.daemon = nil
            env.logs.append(daemon.stderr)
            #expect(daemon.stderr.contains("lost the connection to the bus"), "\(daemon.stderr)")
        }
    }
}
