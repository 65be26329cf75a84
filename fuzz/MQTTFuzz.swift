// libFuzzer target for what a broker hands tbrd on its request topics (fuzz/run.sh mqtt SECONDS): the
// input is an operation (the topic's end) on its first line, then the body.
//
// Oracles, beyond "never crash": any text made one topic level reads back as itself and holds no level
// separator or wildcard; a discovery object id holds only what Home Assistant allows; a request that
// decodes names a known operation, and one that does not decode says why in a sentence.
import MQTTMapping

@_cdecl("LLVMFuzzerTestOneInput")
public func mqttFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    let operation = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []

    let level = MQTTTopics.level(operation)
    if level.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }) { fatalError("a topic level holds a separator or a wildcard") }
    if MQTTTopics.name(ofLevel: level) != operation { fatalError("a topic level does not read back as its text") }
    let object = HomeAssistantDiscovery.objectID(operation)
    if object.isEmpty || !object.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }) {
        fatalError("an object id Home Assistant refuses")
    }

    let topics = MQTTTopics(base: "tbrd", discoveryPrefix: "homeassistant")
    if let found = topics.operation(ofRequest: "tbrd/bridge/request/" + operation), found != operation, !operation.isEmpty {
        fatalError("a request topic names another operation")
    }
    switch MQTTRequest.decode(operation: operation, payload: body).request {
    case .success:
        if !MQTTRequest.operations.contains(where: { $0.name == operation }) { fatalError("an unknown operation decoded") }
    case .failure(let error):
        if error.description.isEmpty { fatalError("a refusal says nothing") }
    }
    return 0
}
