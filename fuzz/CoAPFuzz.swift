// libFuzzer target for the CoAP codec and the MGMT_ACTIVE_GET exchange (fuzz/run.sh coap SECONDS): the
// datagrams a border agent (or anything at its port) sends tbrd's ePSKc commissioner.
//
// Oracles, beyond "never crash": a decoded message encodes to bytes that decode to the same message; the
// exchange's answer is only ever a message that decodes.
import MeshCoP

@_cdecl("LLVMFuzzerTestOneInput")
public func coapFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let message = try? CoAPMessage(decoding: bytes) {
        _ = message.code.description
        _ = message.uriPath
        guard let again = try? CoAPMessage(decoding: message.encoded()) else { fatalError("an encoded message does not decode") }
        // Options are written in number order; compare in that order.
        let sorted = message.options.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element)
        if again.options != sorted || again.payload != message.payload || again.token != message.token || again.code != message.code {
            fatalError("round trip changed the message")
        }
    }
    var exchange = ActiveGetExchange(messageID: bytes.count > 3 ? UInt16(bytes[2]) << 8 | UInt16(bytes[3]) : 0, token: Array(bytes.prefix(4)))
    switch exchange.receive(bytes) {
    case .answer(let m), .acknowledge(_, let m):
        if (try? CoAPMessage(decoding: bytes)) != m { fatalError("an answer that is not the datagram") }
    case .wait, .reset, .malformed:
        break
    }
    _ = exchange.retransmit()
    return 0
}
