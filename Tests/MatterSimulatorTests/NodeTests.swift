import MatterOnboarding
import MatterSimulator
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// What a client does with a commissioned node: its label written and read back, sharing it, reaching
/// it, removing it, and the controls that make a device unreachable or drop every connection.
@Suite struct NodeTests {
    /// A matter-sim with `devices`, a listening client, and the first device commissioned (node 1).
    static func commissioned(_ devices: [String] = ["discriminator=3840 passcode=20202021"]) async throws -> (MatterSimProcess, APIClient) {
        let sim = try await MatterSimProcess.start(["--step-ms", "10"] + devices.flatMap { ["--device", $0] })
        let client = try await APIClient.connect(sim.url)
        _ = try await client.call("start_listening")
        let first = try SimulatedDevice(parsing: try #require(devices.first))
        let code = try CommissioningTests.codes(discriminator: first.discriminator, passcode: first.passcode).qr
        #expect(try await client.call("commission_with_code", ["code": .string(code), "network_only": true])["node_id"] == 1)
        return (sim, client)
    }

    @Test func theNodeLabelIsWrittenReadBackAndAnnounced() async throws {
        let (sim, client) = try await Self.commissioned()
        let id = try await client.send("write_attribute", ["node_id": 1, "attribute_path": "0/40/5", "value": "Kitchen light"])
        #expect(try await client.result(id) == [["Path": ["EndpointId": 0, "ClusterId": 40, "AttributeId": 5], "Status": 0]])
        let updated = try await client.event("attribute_updated")
        #expect(updated.data == [1, "0/40/5", "Kitchen light"])
        #expect(try await client.index(ofReply: id) < updated.index, "the result, then the device's report")
        #expect(try await client.call("read_attribute", ["node_id": 1, "attribute_path": "0/40/5"]) == ["0/40/5": "Kitchen light"])
        #expect(try await client.call("get_node", ["node_id": 1])["attributes"]?["0/40/5"] == "Kitchen light")
        let basic = try await client.call("read_attribute", ["node_id": 1, "attribute_path": ["0/40/*", "1/6/0"]])
        #expect(basic["0/40/5"] == "Kitchen light" && basic["0/40/1"] == "TEST_VENDOR" && basic["1/6/0"] == false && basic["0/29/0"] == nil)
        // Longer than 32 bytes: the device's CONSTRAINT_ERROR, and nothing changes.
        let long = String(repeating: "é", count: 17)
        #expect(try await client.call("write_attribute", ["node_id": 1, "attribute_path": "0/40/5", "value": .string(long)])
            == [["Path": ["EndpointId": 0, "ClusterId": 40, "AttributeId": 5], "Status": 135]])
        #expect(try await client.call("read_attribute", ["node_id": 1, "attribute_path": "0/40/5"]) == ["0/40/5": "Kitchen light"])
        // Another attribute is read-only; a missing one is unsupported; a label that is not a string fails.
        #expect(try await client.call("write_attribute", ["node_id": 1, "attribute_path": "0/40/1", "value": "x"]).array?.first?["Status"] == 136)
        #expect(try await client.call("write_attribute", ["node_id": 1, "attribute_path": "2/40/5", "value": "x"]).array?.first?["Status"] == 127)
        #expect(try await client.failure("write_attribute", ["node_id": 1, "attribute_path": "0/40/5", "value": 5])
            == (0, "Value 5 of type <class 'int'> is invalid for 0/40/5, expected value of type <class 'str'>"))
        #expect(try await client.failure("write_attribute", ["node_id": 1, "attribute_path": "*/40/5", "value": "x"]) == (8, "Invalid attribute path: */40/5"))
        #expect(try await client.failure("write_attribute", ["node_id": 1, "attribute_path": "0/40", "value": "x"])
            == (0, "not enough values to unpack (expected 3, got 2)"))
        await sim.stop()
    }

    @Test func aLabelReadonlyDeviceRefusesTheWriteAsADeviceDoes() async throws {
        let (sim, client) = try await Self.commissioned(["discriminator=5 passcode=20202021 label-readonly"])
        #expect(try await client.call("write_attribute", ["node_id": 1, "attribute_path": "0/40/5", "value": "x"])
            == [["Path": ["EndpointId": 0, "ClusterId": 40, "AttributeId": 5], "Status": 136]])
        #expect(try await client.call("read_attribute", ["node_id": 1, "attribute_path": "0/40/5"]) == ["0/40/5": ""])
        await sim.stop()
    }

    @Test func removingANodeAnnouncesItBeforeTheResultEvenWhenTheDeviceDoesNotAnswer() async throws {
        let (sim, client) = try await Self.commissioned(["discriminator=1 passcode=20202021", "discriminator=2 passcode=20202021"])
        let id = try await client.send("remove_node", ["node_id": 1])
        let removed = try await client.event("node_removed")
        #expect(removed.data == 1)
        #expect(try await client.result(id) == nil)
        #expect(try await client.index(ofReply: id) > removed.index)
        #expect(try await client.failure("get_node", ["node_id": 1]) == (5, "Node 1 does not exist or is not yet interviewed"))
        // The device left the fabric: it can be commissioned again (as node 2).
        let code = try CommissioningTests.codes(discriminator: 1, passcode: 20202021).qr
        #expect(try await client.call("commission_with_code", ["code": .string(code), "network_only": true])["node_id"] == 2)
        // An unreachable node is removed from the server all the same.
        _ = try await client.call("sim_set_available", ["node_id": 2, "available": false])
        let unreachable = try await client.send("remove_node", ["node_id": 2])
        #expect(try await client.event("node_removed", from: removed.index + 1).data == 2)
        #expect(try await client.result(unreachable) == nil)
        #expect(try await client.call("get_nodes") == [])
        await sim.stop()
    }

    @Test func anUnreachableNodeFailsAsTheRealServerFailsIt() async throws {
        let (sim, client) = try await Self.commissioned()
        let address = try #require(try await client.call("ping_node", ["node_id": 1]).object?.keys.first)
        #expect(try await client.call("ping_node", ["node_id": 1]) == .object(JSONObject([(address, JSON.bool(true))])))
        #expect(try await client.call("sim_set_available", ["node_id": 1, "available": false]) == nil)
        #expect(try await client.event("node_updated") { $0["available"] == false }.data["node_id"] == 1)
        #expect(try await client.call("ping_node", ["node_id": 1]) == .object(JSONObject([(address, JSON.bool(false))])))
        #expect(try await client.failure("read_attribute", ["node_id": 1, "attribute_path": "0/40/5"]) == (3, "Node 1 is not (yet) available."))
        #expect(try await client.failure("write_attribute", ["node_id": 1, "attribute_path": "0/40/5", "value": "x"]) == (3, "Node 1 is not (yet) available."))
        #expect(try await client.failure("open_commissioning_window", ["node_id": 1]) == (3, "Node 1 is not (yet) available."))
        #expect(try await client.failure("interview_node", ["node_id": 1]) == (2, "Failed to interview node 1"))
        #expect(try await client.call("get_node", ["node_id": 1])["available"] == false)
        #expect(try await client.call("get_nodes", ["only_available": true]) == [])
        _ = try await client.call("sim_set_available", ["node_id": 1, "available": true])
        #expect(try await client.event("node_updated") { $0["available"] == true }.data["node_id"] == 1)
        let interview = try await client.send("interview_node", ["node_id": 1])
        #expect(try await client.result(interview) == nil)
        let reinterviewed = try await client.event("node_updated", from: try await client.index(ofReply: interview))
        #expect(reinterviewed.data["node_id"] == 1)
        #expect(try await client.failure("sim_set_available", ["node_id": 9, "available": false]) == (5, "Node 9 does not exist or is not yet interviewed"))
        await sim.stop()
    }

    @Test func aSharedNodeGetsCodesThatParseAndANoMultiAdminDeviceCannotBeShared() async throws {
        let (sim, client) = try await Self.commissioned(["discriminator=1 passcode=20202021 vendor-id=0x1234 product-id=7", "discriminator=2 passcode=20202021 no-multi-admin"])
        let codes = try await client.call("open_commissioning_window", ["node_id": 1])
        #expect(codes.object?.keys == ["setup_pin_code", "setup_manual_code", "setup_qr_code"])
        let qr = try SetupPayload(parsing: try #require(codes["setup_qr_code"]?.string))
        let manual = try SetupPayload(parsing: try #require(codes["setup_manual_code"]?.string))
        #expect(qr.vendorID == VendorID(0x1234) && qr.productID == ProductID(7) && qr.discoveryCapabilities == .onNetwork)
        #expect(Int64(qr.passcode.rawValue) == codes["setup_pin_code"]?.int64 && manual.passcode == qr.passcode)
        #expect(manual.discriminator == qr.discriminator.shortened)
        #expect(try await client.call("open_commissioning_window", ["node_id": 1]) == codes, "the window is still open: the same codes")
        let code = try CommissioningTests.codes(discriminator: 2, passcode: 20202021).qr
        #expect(try await client.call("commission_with_code", ["code": .string(code), "network_only": true])["node_id"] == 2)
        #expect(try await client.failure("open_commissioning_window", ["node_id": 2]) == (0, "InteractionModelError: UnsupportedCluster (0xc3)"))
        #expect(try await client.call("get_node", ["node_id": 2])["attributes"]?["0/60/0"] == nil)
        await sim.stop()
    }

    @Test func dropConnectionsEndsEveryClientWithoutACloseFrame() async throws {
        let (sim, client) = try await Self.commissioned()
        let other = try await APIClient.connect(sim.url)
        try await client.send("sim_drop_connections")
        #expect(await client.end() == .connectionLost("the server ended the connection without a closing handshake"))
        #expect(await other.end() == .connectionLost("the server ended the connection without a closing handshake"))
        // The server carries on: a new client sees the node.
        let again = try await APIClient.connect(sim.url)
        #expect(try await again.call("get_nodes").array?.count == 1)
        #expect(await sim.stop() == 0)
    }
}
