import Foundation
@testable import MatterCommissioner
import MatterOnboarding
import Synchronization
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// python-matter-server is shared with other controllers, and a commissioning given up on (timed out)
/// keeps running in it, which finishes it before the next one. A scripted server on loopback plays that
/// order exactly as the real one would send it (the real server cannot be made to finish a device late
/// without one), with another controller's `node_added` events between: tbrd's node is the one its own
/// command's answer names, the late node is left alone (never removed, never taken for the next
/// device's), and nothing another controller added is reported.
@Suite struct AbandonedCommissioningTests {
    static let server = #"""
        def send(obj):
            c.sendall(frame(1, json.dumps(obj).encode()))
        def node(n, product):
            return {"node_id": n, "available": True, "attributes": {"0/40/2": 65521, "0/40/4": product}}
        c.sendall(hello)
        send({"fabric_id": 1, "compressed_fabric_id": 1, "schema_version": 11, "min_supported_schema_version": 9,
              "sdk_version": "scripted", "wifi_credentials_set": False, "thread_credentials_set": True, "bluetooth_enabled": True})
        commissions = []
        try:
            while True:
                op, payload = read_frame()
                if op == 8: break
                # A real server answers the client's keepalive pings; a run slower than one ping interval
                # must not look like a dead server.
                if op == 9: c.sendall(frame(10, payload))
                if op != 1: continue
                message = json.loads(payload)
                command, mid = message["command"], message["message_id"]
                print("command", command, json.dumps(message.get("args", {}).get("node_id")), flush=True)
                if command == "start_listening":
                    send({"message_id": mid, "result": []})
                elif command == "server_info":
                    send({"message_id": mid, "result": {"fabric_id": 1, "schema_version": 11}})
                elif command == "commission_with_code":
                    commissions.append(mid)
                    if len(commissions) == 2:
                        # Another controller's device, added while tbrd's command runs.
                        send({"event": "node_added", "data": node(900000, 0x9000)})
                        # The first (given up on by the client) finishes now, then the second runs.
                        send({"event": "node_added", "data": node(5, 0x8001)})
                        send({"message_id": commissions[0], "result": node(5, 0x8001)})
                        send({"event": "node_added", "data": node(900001, 0x9001)})
                        send({"event": "node_added", "data": node(6, 0x8002)})
                        send({"message_id": commissions[1], "result": node(6, 0x8002)})
                elif command == "remove_node":
                    send({"message_id": mid, "result": None})
        except EOFError:
            pass
        """#

    static func request(_ discriminator: UInt16, _ reference: String) throws -> CommissioningRequest {
        let payload = SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discoveryCapabilities: .ble,
            discriminator: .long(discriminator), passcode: try Passcode(20_202_021))
        return CommissioningRequest(payload: payload, code: try payload.qrCode(), onNetwork: false, reference: reference)
    }

    @Test func onlyTheAnswerToTbrdsOwnCommandNamesItsNodeAndNothingIsRemoved() async throws {
        let (server, port) = try await ScriptedWebSocketServer.start(Self.server)
        let commissioner = MatterServerCommissioner(url: try WebSocketURL("ws://127.0.0.1:\(port)/ws"), connectTimeout: .seconds(60))
        let reported = Locked<[CommissionerProgress]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await commissioner.run() }
            defer { group.cancelAll() }
            // Connected first, so the first command surely reaches the server before its time runs out.
            try await commissioner.checkAvailable(timeout: .seconds(60))
            // The first device times out here; the server keeps commissioning it.
            do {
                _ = try await commissioner.commission(try Self.request(100, "s/1"), timeout: .seconds(1)) { _ in }
                Issue.record("the first commissioning was answered")
            } catch let error as CommissionerError {
                #expect(error.kind == .timedOut)
                #expect(error.isOutcomeUnknown)
                #expect(error.message.contains("outcome unknown: the server may still add the device"), "\(error.message)")
            }
            // The second: the server first finishes the first (node 5), then adds this one (node 6), with
            // another controller's nodes (900000, 900001) between.
            let node = try await commissioner.commission(try Self.request(200, "s/2"), timeout: .seconds(10)) { p in
                reported.withLock { $0.append(p) }
            }
            #expect(node.nodeID == NodeID(6))
            #expect(node.productID == 0x8002)
            #expect(reported.withLock { $0 } == [.nodeAdded(NodeID(6)), .interviewed(vendorID: 0xFFF1, productID: 0x8002)])
            // A command after the rest: the server reads in order, so anything tbrd sent before it was read first.
            try await commissioner.checkAvailable(timeout: .seconds(60))
            try await eventually("the last command reaches the server", wakingOn: server.wakeups) {
                server.stdout.components(separatedBy: "command server_info").count == 3
            }
            #expect(!server.stdout.contains("command remove_node"), "tbrd removes nothing: \(server.stdout)")
            #expect(!server.stdout.contains("command start_listening"), "tbrd does not listen to anyone's events")
        }
        await server.terminate()
    }

    /// tbrd's service group may start the connection's task after the first call arrives: that call
    /// waits for it instead of failing.
    @Test func aCallMadeBeforeTheConnectionTaskStartsWaitsForIt() async throws {
        let (server, port) = try await ScriptedWebSocketServer.start(Self.server)
        let commissioner = MatterServerCommissioner(url: try WebSocketURL("ws://127.0.0.1:\(port)/ws"), connectTimeout: .seconds(60))
        try await withThrowingTaskGroup(of: Void.self) { group in
            // A bound on a failing test only: under a loaded machine the scripted server's Python takes its time.
            group.addTask { try await commissioner.checkAvailable(timeout: .seconds(90)) }
            try await eventually("the call waits for a connection") { await !commissioner.connectWaiters.isEmpty }
            group.addTask { await commissioner.run() }
            try await group.next()
            group.cancelAll()
        }
        #expect(server.stdout.contains("command server_info"))
        await server.terminate()
    }
}
