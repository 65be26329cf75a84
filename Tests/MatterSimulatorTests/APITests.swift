import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// The built matter-sim driven as a client drives python-matter-server: the greeting, the error codes
/// and their details, what closes a connection, and the commands that need no device.
@Suite struct APITests {
    @Test func theGreetingIsTheServerInformationWithTheRealKeysTypesAndOrder() async throws {
        let sim = try await MatterSimProcess.start()
        let client = try await APIClient.connect(sim.url)
        let greeting = await client.greeting
        #expect(greeting.object?.keys == [
            "fabric_id", "compressed_fabric_id", "schema_version", "min_supported_schema_version", "sdk_version", "wifi_credentials_set",
            "thread_credentials_set", "bluetooth_enabled",
        ])
        #expect(greeting["fabric_id"] == 1)
        #expect(greeting["compressed_fabric_id"]?.uint64 != nil)
        #expect(greeting["schema_version"] == 11 && greeting["min_supported_schema_version"] == 9)
        #expect(greeting["sdk_version"] == "2025.7.0")
        #expect(greeting["wifi_credentials_set"] == false && greeting["thread_credentials_set"] == false && greeting["bluetooth_enabled"] == false)
        #expect(try await client.call("server_info") == greeting)
        let diagnostics = try await client.call("diagnostics")
        #expect(diagnostics == ["info": greeting, "nodes": [], "events": []])
        // --schema-version and --bluetooth show.
        let other = try await MatterSimProcess.start(["--schema-version", "12", "--bluetooth"])
        let second = try await APIClient.connect(other.url)
        #expect(await second.greeting["schema_version"] == 12)
        #expect(await second.greeting["bluetooth_enabled"] == true)
        #expect(await sim.stop() == 0)
        #expect(await other.stop() == 0)
    }

    @Test func errorsCarryTheRealCodesAndDetails() async throws {
        let sim = try await MatterSimProcess.start()
        let client = try await APIClient.connect(sim.url)
        #expect(try await client.failure("nope") == (9, "Invalid command: nope"))
        #expect(try await client.failure("set_acl_entry", ["node_id": 1, "entry": []]) == (9, "Invalid command: set_acl_entry"))
        #expect(try await client.failure("get_node") == (8, ""))
        #expect(try await client.failure("get_node", ["node_id": "abc"]) == (8, ""))
        #expect(try await client.failure("get_node", ["node_id": .double(5)]) == (8, ""))
        #expect(try await client.failure("get_node", ["node_id": 999]) == (5, "Node 999 does not exist or is not yet interviewed"))
        #expect(try await client.failure("get_node", ["node_id": "007"]) == (5, "Node 7 does not exist or is not yet interviewed"))
        #expect(try await client.failure("get_node", ["node_id": true]) == (5, "Node True does not exist or is not yet interviewed"))
        #expect(try await client.failure("remove_node", ["node_id": 999]) == (5, "Node 999 does not exist or has not been interviewed."))
        #expect(try await client.failure("ping_node", ["node_id": 999]) == (5, "Node 999 does not exist or is not yet interviewed"))
        #expect(try await client.failure("read_attribute", ["node_id": 999, "attribute_path": "0/40/5"]) == (3, "Node 999 is not (yet) available."))
        #expect(try await client.failure("read_attribute", ["node_id": 1]) == (8, ""))
        #expect(try await client.failure("write_attribute", ["node_id": 999, "attribute_path": "0/40/5", "value": "x"]) == (3, "Node 999 is not (yet) available."))
        #expect(try await client.failure("open_commissioning_window", ["node_id": 999]) == (3, "Node 999 is not (yet) available."))
        #expect(try await client.failure("commission_with_code", ["code": 5]) == (8, ""))
        #expect(try await client.failure("commission_with_code", ["code": "x", "network_only": "yes"]) == (8, ""))
        #expect(try await client.failure("set_thread_dataset", ["dataset": "zz"]) == (0, "non-hexadecimal number found in fromhex() arg at position 0"))
        #expect(try await client.failure("set_thread_dataset", ["dataset": "0e0"]) == (0, "non-hexadecimal number found in fromhex() arg at position 3"))
        // A message without an id is answered with "message_id": null; one without a command is "None".
        try await client.sendRaw(#"{"command": "get_nodes"}"#)
        let anonymous = try await client.wait(for: "the reply without an id") { $0["message_id"] == .null }
        #expect(anonymous.json == ["message_id": nil, "result": []])
        try await client.sendRaw(#"{"message_id": "no-command"}"#)
        #expect(try await client.reply("no-command") == ["message_id": "no-command", "error_code": 9, "details": "Invalid command: None"])
        #expect(await sim.stop() == 0)
    }

    @Test(arguments: ["not json", #"{"message_id": 5, "command": "server_info"}"#, "[1,2]", #"{"message_id": "1", "command": "get_nodes", "args": [1]}"#,
        #"{"message_id": "1", "command": 7}"#])
    func textTheServerCannotReadClosesTheConnectionWith1000(text: String) async throws {
        let sim = try await MatterSimProcess.start()
        let client = try await APIClient.connect(sim.url)
        try await client.sendRaw(text)
        #expect(await client.end() == .closed(code: 1000, reason: ""))
        #expect(await client.received.isEmpty)
        await sim.stop()
    }

    @Test func aSecondStartListeningClosesTheConnectionAndBinaryIsIgnored() async throws {
        let sim = try await MatterSimProcess.start()
        let client = try await APIClient.connect(sim.url)
        try await client.connection.send(binary: Array(#"{"message_id": "b", "command": "server_info"}"#.utf8))
        #expect(try await client.call("start_listening") == [])
        #expect(await client.received.count == 1, "the binary message got no answer")
        try await client.send("start_listening")
        #expect(await client.end() == .closed(code: 1000, reason: ""))
        await sim.stop()
    }

    @Test func theThreadDatasetIsTakenThenServerInfoUpdatedFollowsTheResult() async throws {
        let sim = try await MatterSimProcess.start()
        let client = try await APIClient.connect(sim.url)
        let other = try await APIClient.connect(sim.url)
        _ = try await client.call("start_listening")
        _ = try await other.call("start_listening")
        let id = try await client.send("set_thread_dataset", ["dataset": "00"])
        #expect(try await client.result(id) == nil)
        let event = try await client.event("server_info_updated")
        #expect(try await client.index(ofReply: id) < event.index, "the result comes before the event")
        #expect(event.data["thread_credentials_set"] == true)
        #expect(try await other.event("server_info_updated").data["thread_credentials_set"] == true)
        #expect(try await client.call("server_info")["thread_credentials_set"] == true)
        _ = try await client.call("set_wifi_credentials", ["ssid": "home", "credentials": "secret"])
        #expect(try await client.event("server_info_updated", from: event.index + 1).data["wifi_credentials_set"] == true)
        await sim.stop()
    }
}
