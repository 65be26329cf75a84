import MeshCoP
import TBRFoundation
import Testing

@Suite("CoAP messages (RFC 7252)")
struct CoAPMessageTests {
    @Test("MGMT_ACTIVE_GET.req: a confirmable POST to c/ag, byte for byte")
    func activeGetRequest() throws {
        let request = CoAPMessage.post(path: "c/ag", messageID: 0x1234, token: [0xde, 0xad, 0xbe, 0xef])
        // Ver 1, CON, TKL 4; 0.02 POST; MID; token; Uri-Path "c" (delta 11, length 1); Uri-Path "ag" (delta 0, length 2).
        #expect(Hex.encode(request.encoded()) == "440212 34deadbeef b163 026167".replacingOccurrences(of: " ", with: ""))
        let decoded = try CoAPMessage(decoding: request.encoded())
        #expect(decoded == request && decoded.uriPath == "c/ag" && decoded.code.isRequest)
    }

    @Test("a piggybacked 2.04 answer with the dataset as payload round-trips")
    func answerRoundTrip() throws {
        let payload = [UInt8](repeating: 0x5a, count: 300)
        let answer = CoAPMessage(kind: .acknowledgement, code: .changed, messageID: 7, token: [1, 2], payload: payload)
        let decoded = try CoAPMessage(decoding: answer.encoded())
        #expect(decoded == answer && decoded.code.description == "2.04 Changed" && decoded.code.isSuccess)
        #expect(CoAPMessage.Code(4, 1).description == "4.01 Unauthorized" && CoAPMessage.Code(5, 31).description == "5.31")
    }

    @Test("long option numbers and lengths use the 13 and 14 extensions")
    func extendedOptions() throws {
        let value = [UInt8](repeating: 0x61, count: 300)
        let m = CoAPMessage(
            kind: .nonConfirmable, code: .post, messageID: 1,
            options: [CoAPMessage.Option(number: 11, value: [0x63]), CoAPMessage.Option(number: 2000, value: value)])
        #expect(try CoAPMessage(decoding: m.encoded()) == m)
    }

    @Test("every truncation of a valid message is an error or a shorter message, never a trap")
    func truncations() throws {
        let bytes = CoAPMessage.post(path: "c/ag", messageID: 9, token: [1, 2, 3], payload: [0x0e, 0x08]).encoded()
        for n in 0..<bytes.count {
            _ = try? CoAPMessage(decoding: Array(bytes.prefix(n)))
        }
        #expect(throws: CoAPMessage.DecodingError.tooShort(3)) { try CoAPMessage(decoding: [0x40, 0, 0]) }
    }

    @Test("message format errors are named")
    func formatErrors() {
        #expect(throws: CoAPMessage.DecodingError.version(2)) { try CoAPMessage(decoding: [0x80, 0x01, 0, 0]) }
        #expect(throws: CoAPMessage.DecodingError.tokenLength(9)) { try CoAPMessage(decoding: [0x49, 0x01, 0, 0] + [UInt8](repeating: 0, count: 9)) }
        #expect(throws: CoAPMessage.DecodingError.emptyPayloadAfterMarker) { try CoAPMessage(decoding: [0x40, 0x01, 0, 0, 0xff]) }
        #expect(throws: CoAPMessage.DecodingError.reservedOptionNibble(offset: 4)) { try CoAPMessage(decoding: [0x40, 0x01, 0, 0, 0xf1, 0]) }
        #expect(throws: CoAPMessage.DecodingError.truncated(offset: 4)) { try CoAPMessage(decoding: [0x40, 0x01, 0, 0, 0x15]) }
        #expect(throws: CoAPMessage.DecodingError.emptyMessageWithContent) { try CoAPMessage(decoding: [0x61, 0x00, 0, 0, 0x01]) }
    }
}
