import MatterOnboarding
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// Commissioning through matter-sim: the Bluetooth rule, the steps and their failures, node IDs, the
/// events and their order, and several clients sharing the server.
@Suite struct CommissioningTests {
    /// A Thread dataset, as tbrd hands one over.
    static let dataset = "0e080000000000010000000300000f35060004001fffe00208dead00beef00cafe0708fd000db800000000051000112233445566778899aabbccddeeff030a4f70656e546872656164010212340410104810e2315100afd6bc9215a6bfac530c0402a0f7f8"

    /// The codes of a device with `discriminator` and `passcode` (vendor 0xFFF1, product 0x8000).
    static func codes(discriminator: UInt16, passcode: UInt32) throws -> (qr: String, manual: String) {
        let payload = SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discriminator: .long(discriminator), passcode: Passcode(unchecked: passcode))
        return (try payload.qrCode(), try payload.manualCode())
    }

    @Test func withoutBluetoothABLECodeIsRefusedAtOnceAndTakesNoNodeID() async throws {
        let sim = try await MatterSimProcess.start(["--step-ms", "10"])
        let client = try await APIClient.connect(sim.url)
        let code = try Self.codes(discriminator: 3840, passcode: 20202021).qr
        #expect(try await client.failure("commission_with_code", ["code": .string(code)]) == (1, "Bluetooth commissioning is not available."))
        // On the network it works, and it is node 1.
        let node = try await client.call("commission_with_code", ["code": .string(code), "network_only": true])
        #expect(node["node_id"] == 1)
        await sim.stop()
    }

    @Test func aBLECommissioningAddsTheNodeWithItsEventsBeforeTheResult() async throws {
        let sim = try await MatterSimProcess.start(["--bluetooth", "--step-ms", "10", "--device", "discriminator=3840 passcode=20202021 vendor-id=0x1234 product-id=42"])
        let client = try await APIClient.connect(sim.url)
        let listener = try await APIClient.connect(sim.url)
        _ = try await client.call("start_listening")
        _ = try await listener.call("start_listening")
        let code = try Self.codes(discriminator: 3840, passcode: 20202021)
        // No dataset yet: the device cannot join a Thread network; the attempt still takes node 1.
        #expect(try await client.failure("commission_with_code", ["code": .string(code.qr)]) == (1, "Commission with code failed for node 1."))
        _ = try await client.call("set_thread_dataset", ["dataset": .string(Self.dataset)])
        let id = try await client.send("commission_with_code", ["code": .string(code.manual)])
        let added = try await client.event("node_added")
        let updated = try await client.event("node_updated", from: added.index)
        let result = try await client.result(id)
        #expect(try await client.index(ofReply: id) > updated.index, "node_added, node_updated, then the result")
        #expect(added.data["node_id"] == 2 && added.data["available"] == false)
        #expect(updated.data["node_id"] == 2 && updated.data["available"] == true)
        #expect(result["node_id"] == 2 && result["available"] == true)
        #expect(result.object?.keys == [
            "node_id", "date_commissioned", "last_interview", "interview_version", "available", "is_bridge", "attributes", "attribute_subscriptions",
        ])
        #expect(result["interview_version"] == 6 && result["is_bridge"] == false && result["attribute_subscriptions"] == [])
        let attributes = try #require(result["attributes"])
        #expect(attributes["0/40/1"] == "TEST_VENDOR" && attributes["0/40/2"] == 0x1234 && attributes["0/40/4"] == 42 && attributes["0/40/5"] == "")
        #expect(attributes["0/53/2"] == "OpenThread" && attributes["0/53/3"] == 0x1234, "the network of the dataset handed over")
        #expect(attributes["0/29/0"] == [["0": 22, "1": 3]])
        let date = try #require(result["date_commissioned"]?.string)
        #expect(date.count >= 19 && !date.hasSuffix("Z") && !date.contains("+"), "ISO without a zone: \(date)")
        // The listener saw the same, and get_node/get_nodes agree.
        #expect(try await listener.event("node_added").data["node_id"] == 2)
        #expect(try await client.call("get_node", ["node_id": 2]) == result)
        #expect(try await client.call("get_nodes") == [result])
        #expect(try await client.call("get_nodes", ["only_available": true]) == [result])
        // The device is now commissioned: nobody finds it again.
        #expect(try await client.failure("commission_with_code", ["code": .string(code.qr)]) == (1, "Commission with code failed for node 3."))
        await sim.stop()
    }

    @Test func aWrongPasscodeAndAnAbsentDeviceFailAndEveryAttemptTakesANodeID() async throws {
        let sim = try await MatterSimProcess.start([
            "--step-ms", "10", "--device", "discriminator=100 passcode=20202021", "--device", "discriminator=200 passcode=20202021 absent",
        ])
        let client = try await APIClient.connect(sim.url)
        let wrong = try Self.codes(discriminator: 100, passcode: 11223344).qr
        let absent = try Self.codes(discriminator: 200, passcode: 20202021).qr
        let nobody = try Self.codes(discriminator: 300, passcode: 20202021).qr
        #expect(try await client.failure("commission_with_code", ["code": .string(wrong), "network_only": true]) == (1, "Commission with code failed for node 1."))
        #expect(try await client.failure("commission_with_code", ["code": .string(absent), "network_only": true]) == (1, "Commission with code failed for node 2."))
        #expect(try await client.failure("commission_with_code", ["code": .string(nobody), "network_only": true]) == (1, "Commission with code failed for node 3."))
        #expect(try await client.failure("commission_with_code", ["code": "1234", "network_only": true]) == (1, "Commission with code failed for node 4."))
        let right = try Self.codes(discriminator: 100, passcode: 20202021).qr
        #expect(try await client.call("commission_with_code", ["code": .string(right), "network_only": true])["node_id"] == 5)
        #expect(try await client.failure("commission_on_network", ["setup_pin_code": 1]) == (1, "Commissioning failed for node 6."))
        await sim.stop()
    }

    @Test func commissioningsFromTwoClientsTakeTurnsInArrivalOrder() async throws {
        let sim = try await MatterSimProcess.start(["--step-ms", "20"])
        let listener = try await APIClient.connect(sim.url)
        _ = try await listener.call("start_listening")
        let first = try await APIClient.connect(sim.url)
        let second = try await APIClient.connect(sim.url)
        let a = try await first.send("commission_with_code", ["code": .string(try Self.codes(discriminator: 1, passcode: 20202021).qr), "network_only": true])
        // A reply on the same connection proves the server has taken the first commissioning.
        _ = try await first.call("server_info")
        let b = try await second.send("commission_with_code", ["code": .string(try Self.codes(discriminator: 2, passcode: 20202021).qr), "network_only": true])
        #expect(try await first.result(a)["node_id"] == 1)
        #expect(try await second.result(b)["node_id"] == 2)
        // The listener saw the first one finish before the second began.
        let added1 = try await listener.event("node_added") { $0["node_id"] == 1 }
        let updated1 = try await listener.event("node_updated") { $0["node_id"] == 1 }
        let added2 = try await listener.event("node_added") { $0["node_id"] == 2 }
        #expect(added1.index < updated1.index && updated1.index < added2.index)
        await sim.stop()
    }

    @Test func aCommissioningGoesOnWhenItsClientLeavesAndTheOthersSeeTheNode() async throws {
        let sim = try await MatterSimProcess.start(["--step-ms", "20"])
        let listener = try await APIClient.connect(sim.url)
        _ = try await listener.call("start_listening")
        let leaver = try await APIClient.connect(sim.url)
        try await leaver.send("commission_with_code", ["code": .string(try Self.codes(discriminator: 7, passcode: 20202021).qr), "network_only": true])
        _ = try await leaver.call("server_info")
        await leaver.close()
        let added = try await listener.event("node_added")
        #expect(added.data["node_id"] == 1)
        #expect(try await listener.event("node_updated", from: added.index).data["available"] == true)
        #expect(try await listener.call("get_nodes").array?.count == 1)
        await sim.stop()
    }
}
