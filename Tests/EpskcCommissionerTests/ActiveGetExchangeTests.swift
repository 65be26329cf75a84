import MeshCoP
import Testing

@testable import EpskcCommissioner

@Suite("MGMT_ACTIVE_GET over CoAP (sans I/O)")
struct ActiveGetExchangeTests {
    static func make() -> ActiveGetExchange { ActiveGetExchange(messageID: 0x0101, token: [9, 8, 7, 6]) }

    @Test("a piggybacked answer ends the exchange; others' datagrams are ignored")
    func piggybacked() {
        var x = Self.make()
        #expect(x.request.uriPath == "c/ag" && x.request.kind == .confirmable && x.request.payload.isEmpty)
        let stranger = CoAPMessage(kind: .acknowledgement, code: .changed, messageID: 0x0202, token: [1])
        #expect(x.receive(stranger.encoded()) == .wait)
        let answer = CoAPMessage(kind: .acknowledgement, code: .changed, messageID: 0x0101, token: [9, 8, 7, 6], payload: [0x0e])
        #expect(x.receive(answer.encoded()) == .answer(answer))
    }

    @Test("an empty ACK, then a separate confirmable answer that gets its own ACK")
    func separate() {
        var x = Self.make()
        #expect(x.receive(CoAPMessage(kind: .acknowledgement, code: .empty, messageID: 0x0101).encoded()) == .wait)
        #expect(x.retransmit() == nil, "acknowledged: no more retransmissions")
        let answer = CoAPMessage(kind: .confirmable, code: .changed, messageID: 0x7777, token: [9, 8, 7, 6], payload: [1])
        #expect(x.receive(answer.encoded()) == .acknowledge(CoAPMessage(kind: .acknowledgement, code: .empty, messageID: 0x7777), answer: answer))
    }

    @Test("retransmitted MAX_RETRANSMIT times with a doubling timeout (RFC 7252, 4.2)")
    func retransmissions() {
        var x = Self.make()
        let first = x.retransmitIn
        #expect(first >= .seconds(2) && first <= .seconds(3))
        for n in 1...4 {
            #expect(x.retransmit() == x.request, "retransmission \(n)")
        }
        #expect(x.retransmit() == nil)
        #expect(x.retransmitIn == first * 32)
    }

    @Test("a reset, garbage and a wrong token are told apart")
    func failures() {
        var x = Self.make()
        #expect(x.receive([0xff, 0x00]) == .malformed("not CoAP: a CoAP message has a 4-byte header; got 2 byte(s)"))
        let wrongToken = CoAPMessage(kind: .acknowledgement, code: .changed, messageID: 0x0101, token: [1])
        #expect(x.receive(wrongToken.encoded()) == .malformed("an acknowledgement with another token"))
        #expect(x.receive(CoAPMessage(kind: .reset, code: .empty, messageID: 0x0101).encoded()) == .reset)
    }
}
