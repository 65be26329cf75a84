import MQTTMapping
import TBRFoundation
import Testing

/// MQTT's pure mapping: topic levels, request decoding, discovery object ids.
@Suite struct MQTTMappingTests {
    @Test func namesBecomeOneTopicLevelAndReadBack() {
        #expect(MQTTTopics.level("Living room") == "Living room")
        #expect(MQTTTopics.level("A/B+C#D%E") == "A%2FB%2BC%23D%25E")
        for name in ["Home", "A/B", "100%", "ü/#", "tab\there"] {
            #expect(MQTTTopics.name(ofLevel: MQTTTopics.level(name)) == name)
        }
        #expect(MQTTTopics.name(ofLevel: "bad%2") == nil)
        let topics = MQTTTopics(base: "homes/1/tbrd", discoveryPrefix: "")
        #expect(topics.structure("A/B") == "homes/1/tbrd/structures/A%2FB")
        #expect(topics.structure(ofInternetAccessCommand: "homes/1/tbrd/structures/A%2FB/internet-access/set") == "A/B")
        #expect(topics.operation(ofRequest: "homes/1/tbrd/bridge/request/structure/policy") == "structure/policy")
        #expect(topics.operation(ofRequest: "homes/1/tbrd/bridge/response/routers") == nil)
        #expect(topics.homeAssistantStatus == nil, "an empty prefix turns discovery off")
        #expect(HomeAssistantDiscovery(topics: topics, clientID: "x", version: "1") == nil)
    }

    @Test func requestsDecodeWithTheirTransactionOrSayWhatIsWrong() throws {
        let (policy, transaction) = MQTTRequest.decode(
            operation: "structure/policy", payload: Array(#"{"structure": "Home", "internetAccessOption": "none", "transaction": "t"}"#.utf8))
        #expect(try policy.get() == .setPolicy(structure: "Home", option: "none"))
        #expect(transaction == .string("t"))
        #expect(try MQTTRequest.decode(operation: "routers", payload: []).request.get() == .routers)
        func refusal(_ operation: String, _ body: String) -> String {
            if case .failure(let e) = MQTTRequest.decode(operation: operation, payload: Array(body.utf8)).request { return e.description }
            return ""
        }
        #expect(refusal("structure", "{") .hasPrefix("the body is not JSON"))
        #expect(refusal("structure", #"{"structure": 1}"#) == "structure is a string")
        #expect(refusal("structure", "[]") == "the body is not a JSON object")
        #expect(refusal("epskc/activate", #"{"router": "wpan0", "durationSeconds": 1.5}"#) == "durationSeconds is a whole number")
        #expect(refusal("structure", #"{"structure": "a", "structure": "b"}"#).contains("twice"))
        #expect(refusal("nothing", "{}").hasPrefix("there is no operation"))
        let big = [UInt8](repeating: 0x20, count: MQTTRequest.maximumBody + 1)
        #expect(refusal("routers", String(decoding: big, as: UTF8.self)).contains("at most"))
        #expect(MQTTRequest.setPolicy(structure: "a", option: "none").permission == .always)
        #expect(MQTTRequest.activateEpskc(router: "a", seconds: 1).permission == .epskc)
        #expect(MQTTRequest.leave(router: "a").permission == .admin)
    }

    @Test func objectIDsAreWhatHomeAssistantAllowsAndNeverShared() {
        #expect(HomeAssistantDiscovery.objectID("wpan0") == "wpan0")
        let a = HomeAssistantDiscovery.objectID("Living Room"), b = HomeAssistantDiscovery.objectID("living room")
        #expect(a != b)
        #expect(a.hasPrefix("living_room_"))
    }
}
