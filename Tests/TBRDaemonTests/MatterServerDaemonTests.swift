import DBus
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing
import WebSocket

/// tbrd with `matter-backend = matter-server` against a real python-matter-server from PyPI, run by the
/// test in namespaces of its own: the credentials really handed over (read back with `server_info`), a
/// device that is not there failing within tbrd's timeout with its stage and error, and the server
/// killed in the middle of a session. Fails, never skips, when the server cannot run.
@Suite(.serialized) struct MatterServerDaemonTests {
    static func configuration(_ server: MatterServerProcess, commissionTimeout: Int) -> String {
        "matter-backend = matter-server\nmatter-server-url = \(server.url)\nmatter-commission-timeout = \(commissionTimeout)\nmatter-call-timeout = 10\n"
    }

    /// `thread_credentials_set` as the server says it to a client of the test's own.
    static func credentialsSet(_ server: MatterServerProcess) async throws -> Bool {
        let client = try await WebSocketClient.connect(to: WebSocketURL(server.url))
        let greeting: WebSocketMessage
        do { greeting = try await client.receive() } catch {
            await client.close()
            throw error
        }
        await client.close()
        guard case .text(let text) = greeting, let info = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let set = info["thread_credentials_set"] as? Bool
        else { throw TestKitError("no server information") }
        return set
    }

    static func detail(_ s: CommissioningProgressSignal?, _ key: String) -> String? { try? s?.detail[key]?.decode(as: String.self) }

    @Test func credentialsAreHandedOverAndADeviceThatIsNotThereFailsWithinTheTimeout() async throws {
        try await withMatterServer { server in
            try await withDaemon { env throws in
                let rig = try await CommissioningRig.start(env, configuration: Self.configuration(server, commissionTimeout: 4))
                #expect(try await Self.credentialsSet(server) == false)
                let session = try await rig.prepare()

                // A BLE device: tbrd hands the network's dataset over, then the server (without Bluetooth) refuses.
                let ble = try await rig.commission(session, CommissioningRig.code(discriminator: 100))
                let signals = try await rig.waitForEnd(session, ble)
                #expect(signals.map(\.stage) == ["queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "failed"])
                #expect(Self.detail(signals.last, "failedStage") == "commissioning")
                #expect(Self.detail(signals.last, "error")?.hasSuffix("commissioning failed (error 1): Bluetooth commissioning is not available.") == true)
                #expect(try await Self.credentialsSet(server), "the server has the Thread credentials")

                // A device already on the network that nobody can find: the server would look for 30 s;
                // tbrd's matter-commission-timeout (4 s) fails it first, naming the stage.
                let started = ContinuousClock.now
                let absent = try await rig.commission(session, CommissioningRig.code(discriminator: 200), ["onNetwork": .bool(true)])
                let lost = try await rig.waitForEnd(session, absent, timeout: .seconds(20))
                #expect(ContinuousClock.now - started < .seconds(12))
                #expect(lost.map(\.stage) == ["queued", "validated", "networkSelected", "commissioning", "failed"], "no credentials on-network")
                #expect(Self.detail(lost.last, "failedStage") == "commissioning")
                #expect(Self.detail(lost.last, "error")?.contains("did not answer commission_with_code within 4 s; outcome unknown: the server may still add the device") == true)
                let outcomes = try await rig.complete(session)
                #expect(outcomes.map(\.outcome) == ["failed", "failed"])
                env.secrets.append("20202021")
            }
        }
    }

    @Test func theServerKilledMidSessionFailsThePayloadInFlightAndTbrdConnectsAgainForTheNext() async throws {
        try await withMatterServer { server in
            try await withDaemon { env throws in
                let rig = try await CommissioningRig.start(env, configuration: Self.configuration(server, commissionTimeout: 60))
                let session = try await rig.prepare()
                let first = try await rig.commission(session, CommissioningRig.code(discriminator: 100), ["onNetwork": .bool(true)])
                try await eventually("the server is commissioning", timeout: .seconds(10)) { rig.progress.stages(session, first).contains("commissioning") }
                await server.kill()
                let killed = try await rig.waitForEnd(session, first)
                #expect(Self.detail(killed.last, "failedStage") == "commissioning")
                #expect(Self.detail(killed.last, "error")?.contains("was lost while it commissioned the device") == true)
                #expect(Self.detail(killed.last, "error")?.contains("outcome unknown") == true)

                // With the server gone, the next payload fails where tbrd first needs it.
                let second = try await rig.commission(session, CommissioningRig.code(discriminator: 200))
                let down = try await rig.waitForEnd(session, second)
                #expect(Self.detail(down.last, "failedStage") == "credentialsHandedOver")
                #expect(Self.detail(down.last, "error")?.contains("cannot reach python-matter-server") == true
                    || Self.detail(down.last, "error")?.contains("python-matter-server") == true)

                // A new server: the next payload reaches it (and is refused for want of Bluetooth).
                try await server.restart()
                let third = try await rig.commission(session, CommissioningRig.code(discriminator: 300))
                let back = try await rig.waitForEnd(session, third)
                #expect(back.map(\.stage).contains("credentialsHandedOver"))
                #expect(Self.detail(back.last, "error")?.hasSuffix("Bluetooth commissioning is not available.") == true)
                #expect(try await rig.complete(session).map(\.outcome) == ["failed", "failed", "failed"])

                // The server down: a new session is refused as unavailable.
                await server.kill()
                let refused = await CommissioningRig.failure { _ = try await rig.prepare() }
                #expect(refused?.name == "io.tbrd.Error.Unavailable")
                #expect(refused?.message.contains("cannot be reached") == true)
                env.secrets.append("20202021")
            }
        }
    }
}
