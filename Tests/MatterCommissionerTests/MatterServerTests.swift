import Foundation
import MatterCommissioner
import MatterOnboarding
import MeshCoP
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// ``MatterServerCommissioner`` against a real python-matter-server from PyPI, started by the test in
/// namespaces of its own (``TBRTestKit/MatterServerProcess``): what it sends and how it reads the
/// answers, the server's errors in words, a call bounded by its timeout, the connection lost and made
/// again. Fails (never skips) when the server cannot run.
@Suite(.serialized) struct MatterServerTests {
    /// A QR code of a BLE device (the SDK's example app).
    static let bleCode = "MT:Y.K9042C00KA0648G00"

    /// The server's information through a client of the test's own.
    static func serverInfo(_ server: MatterServerProcess) async throws -> [String: Any] {
        let client = try await WebSocketClient.connect(to: WebSocketURL(server.url))
        let greeting: WebSocketMessage
        do { greeting = try await client.receive() } catch {
            await client.close()
            throw error
        }
        await client.close()
        guard case .text(let text) = greeting, let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw TestKitError("no server information")
        }
        return object
    }

    /// Runs `body` with a commissioner for `server`, its connection running.
    static func withCommissioner<R: Sendable>(
        _ server: MatterServerProcess, _ body: @escaping @Sendable (MatterServerCommissioner) async throws -> R
    ) async throws -> R {
        let commissioner = MatterServerCommissioner(url: try WebSocketURL(server.url), connectTimeout: .seconds(60))
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                await commissioner.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(commissioner)
        }
    }

    @Test func credentialsCommandsAndTheServersErrorsInWords() async throws {
        try await withMatterServer { server in
            #expect(try await Self.serverInfo(server)["thread_credentials_set"] as? Bool == false)
            try await Self.withCommissioner(server) { commissioner in
                try await commissioner.checkAvailable(timeout: .seconds(60))
                let dataset = try OperationalDataset.random(name: NetworkName("Home"))
                try await commissioner.handOverCredentials(dataset, timeout: .seconds(10))
                // The server took the credentials: its information says so to any client.
                #expect(try await Self.serverInfo(server)["thread_credentials_set"] as? Bool == true)
                #expect(try await commissioner.nodes(timeout: .seconds(10)).isEmpty)

                // Without Bluetooth the server refuses a device that is not on the network, at once.
                let request = CommissioningRequest(
                    payload: try SetupPayload(parsing: Self.bleCode), code: Self.bleCode, onNetwork: false, reference: "t/1")
                do throws(CommissionerError) {
                    _ = try await commissioner.commission(request, timeout: .seconds(20)) { _ in Issue.record("no progress expected") }
                    Issue.record("commissioning without Bluetooth succeeded")
                } catch {
                    #expect(error.kind == .refused && error.serverCode == 1)
                    #expect(error.message.hasSuffix(": commissioning failed (error 1): Bluetooth commissioning is not available."))
                }
                // A node the server does not have: sharing and removing it fail saying so.
                await #expect(throws: CommissionerError.self) { try await commissioner.openCommissioningWindow(NodeID(5), seconds: 300, timeout: .seconds(10)) }
                do throws(CommissionerError) { _ = try await commissioner.openCommissioningWindow(NodeID(5), seconds: 300, timeout: .seconds(10)) } catch {
                    #expect(error.message.hasSuffix("node not ready (error 3): Node 5 is not (yet) available."))
                }
                do throws(CommissionerError) { try await commissioner.removeNode(NodeID(5), timeout: .seconds(10)) } catch {
                    #expect(error.serverCode == 5 && error.message.contains("node does not exist"))
                }

                // An absent device on the network: the server looks for 30 s; the call's timeout ends it first.
                let onNetwork = CommissioningRequest(
                    payload: try SetupPayload(parsing: Self.bleCode), code: Self.bleCode, onNetwork: true, reference: "t/2")
                let started = ContinuousClock.now
                do throws(CommissionerError) {
                    _ = try await commissioner.commission(onNetwork, timeout: .seconds(2)) { _ in }
                    Issue.record("an absent device was commissioned")
                } catch {
                    #expect(error.kind == .timedOut)
                    #expect(error.message.contains("did not answer commission_with_code within 2 s; outcome unknown"))
                }
                #expect(ContinuousClock.now - started < .seconds(6))
                // The connection is still good for the next call.
                try await commissioner.checkAvailable(timeout: .seconds(60))
            }
        }
    }

    @Test func aServerThatGoesAwayFailsTheCallInFlightAndTheNextCallConnectsAgain() async throws {
        try await withMatterServer { server in
            try await Self.withCommissioner(server) { commissioner in
                try await commissioner.checkAvailable(timeout: .seconds(60))
                let onNetwork = CommissioningRequest(
                    payload: try SetupPayload(parsing: Self.bleCode), code: Self.bleCode, onNetwork: true, reference: "t/1")
                async let inFlight: CommissionerError? = {
                    do throws(CommissionerError) {
                        _ = try await commissioner.commission(onNetwork, timeout: .seconds(30)) { _ in }
                        return nil
                    } catch {
                        return error
                    }
                }()
                // The server is busy looking for the device; kill it.
                try await eventually("the server commissions", timeout: .seconds(20), wakingOn: server.wakeups) {
                    server.log.contains("Starting Matter commissioning with code")
                }
                await server.kill()
                let error = try #require(await inFlight)
                #expect(error.kind == .connectionLost)
                #expect(error.message.contains("was lost while it commissioned the device"))
                #expect(error.message.contains("outcome unknown: the server may still add the device"))
                // Nobody listens now: the next call says it cannot reach the server.
                do throws(CommissionerError) {
                    try await commissioner.checkAvailable(timeout: .seconds(60))
                    Issue.record("a server that was killed answered")
                } catch {
                    #expect(error.kind == .unavailable)
                }
                // A new server: the next call connects again.
                try await server.restart()
                try await commissioner.checkAvailable(timeout: .seconds(60))
                #expect(await commissioner.serverInfo?["thread_credentials_set"]?.bool == false)
            }
        }
    }

    /// The server is shared (Home Assistant commissions its own devices on it): nodes another controller
    /// adds while tbrd commissions, after tbrd's commissioning timed out and after tbrd's connection was
    /// lost are never reported as tbrd's, and never removed.
    @Test func anotherControllersNodesAreNeverReportedOrRemoved() async throws {
        try await withMatterServer { server in
            try await Self.withCommissioner(server) { commissioner in
                try await commissioner.checkAvailable(timeout: .seconds(60))
                let reported = Locked<[CommissionerProgress]>([])
                let absent = CommissioningRequest(
                    payload: try SetupPayload(parsing: Self.bleCode), code: Self.bleCode, onNetwork: true, reference: "t/1")
                func starts() -> Int { server.log.components(separatedBy: "Starting Matter commissioning with code").count - 1 }

                // tbrd's connection is lost while the server looks for a device; the other controller adds a
                // node meanwhile.
                var other = try await MatterController.connect(server.url)
                async let lost: CommissionerError? = {
                    do throws(CommissionerError) {
                        _ = try await commissioner.commission(absent, timeout: .seconds(60)) { p in reported.withLock { $0.append(p) } }
                        return nil
                    } catch {
                        return error
                    }
                }()
                try await eventually("the server commissions tbrd's device", timeout: .seconds(20)) { starts() == 1 }
                let first = try await other.importTestNode(productID: 0x9001)
                server.dropConnections()
                let lostError = try #require(await lost)
                #expect(lostError.kind == .connectionLost && lostError.isOutcomeUnknown)
                #expect(lostError.message.contains("outcome unknown: the server may still add the device"))
                await other.close()

                // After the loss, the other controller adds another node; tbrd's next commissioning times out
                // while it adds a third.
                other = try await MatterController.connect(server.url)
                let second = try await other.importTestNode(productID: 0x9002)
                async let timedOut: CommissionerError? = {
                    do throws(CommissionerError) {
                        _ = try await commissioner.commission(absent, timeout: .seconds(3)) { p in reported.withLock { $0.append(p) } }
                        return nil
                    } catch {
                        return error
                    }
                }()
                let third = try await other.importTestNode(productID: 0x9003)
                let timeoutError = try #require(await timedOut)
                #expect(timeoutError.kind == .timedOut && timeoutError.isOutcomeUnknown)
                let fourth = try await other.importTestNode(productID: 0x9004)

                // tbrd's own connection reads after anything it could have sent: every node is still there.
                let nodes = try await commissioner.nodes(timeout: .seconds(10)).map(\.nodeID.rawValue)
                #expect(Set([first, second, third, fourth]).isSubset(of: Set(nodes)), "\(nodes)")
                #expect(Set(try await other.nodeIDs()) == Set([first, second, third, fourth]))
                #expect(reported.withLock { $0 }.isEmpty, "nothing another controller did was reported as tbrd's")
                #expect(!server.log.contains("Removing Node ID"))
                await other.close()
            }
        }
    }

    /// The server's host goes silent (every packet into its namespace dropped by nft, as when it loses
    /// power): tbrd's pings find it, and the call waiting fails as a lost connection, not at its own
    /// timeout minutes later.
    @Test func aServerThatGoesSilentIsFoundByThePingsAndTheWaitingCallFails() async throws {
        try await withMatterServer { server in
            try await Self.withCommissioner(server) { commissioner in
                try await commissioner.checkAvailable(timeout: .seconds(60))
                let absent = CommissioningRequest(
                    payload: try SetupPayload(parsing: Self.bleCode), code: Self.bleCode, onNetwork: true, reference: "t/1")
                async let waiting: CommissionerError? = {
                    do throws(CommissionerError) {
                        _ = try await commissioner.commission(absent, timeout: .seconds(600)) { _ in }
                        return nil
                    } catch {
                        return error
                    }
                }()
                try await eventually("the server commissions", timeout: .seconds(20), wakingOn: server.wakeups) {
                    server.log.contains("Starting Matter commissioning with code")
                }
                let nft = try Executables.find("nft", package: "nftables")
                let drop = try await ProcessRunner.run(
                    try Executables.find("ip", package: "iproute2"), ["netns", "exec", server.namespace, nft, "-f", "-"],
                    stdin: "table inet tbrdsilence {\n\tchain input {\n\t\ttype filter hook input priority -300; policy drop;\n\t}\n}\n",
                    timeout: .seconds(10))
                #expect(drop.status == 0, "\(drop.stderr)")
                let error = try #require(await waiting)
                #expect(error.kind == .connectionLost, "not the 600 s timeout: \(error.message)")
                #expect(error.message.contains("no pong arrived within 5 s"), "\(error.message)")
                #expect(error.isOutcomeUnknown)
            }
        }
    }
}
