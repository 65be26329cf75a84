import MeshCoP

/// One `MGMT_ACTIVE_GET.req` and its answer, sans I/O (RFC 7252, 4.2 and 5.2): the request is a
/// confirmable POST to `c/ag`, retransmitted after ACK_TIMEOUT (2 s, times a random factor up to 1.5),
/// doubling, MAX_RETRANSMIT (4) times. The answer comes piggybacked on the ACK, or separately after an
/// empty ACK (then it is acknowledged). Datagrams that belong to no request of ours are ignored.
struct ActiveGetExchange {
    /// What to do with a datagram.
    enum Step: Equatable {
        /// Not the answer yet: keep waiting.
        case wait
        /// The answer.
        case answer(CoAPMessage)
        /// The answer came as a confirmable message: send the ACK, then use the answer.
        case acknowledge(CoAPMessage, answer: CoAPMessage)
        /// The server reset our request.
        case reset
        /// Not CoAP, or a broken answer to our request.
        case malformed(String)
    }

    /// RFC 7252, 4.8.
    static let ackTimeout: Duration = .seconds(2)
    static let maxRetransmit = 4

    let request: CoAPMessage
    private(set) var retransmitIn: Duration
    private var retransmissions = 0
    /// An empty ACK came: the answer follows separately, no more retransmissions.
    private var acknowledged = false

    init(messageID: UInt16 = .random(in: 0...UInt16.max), token: [UInt8] = (0..<4).map { _ in .random(in: 0...255) }) {
        request = .post(path: "c/ag", messageID: messageID, token: token)
        retransmitIn = Self.ackTimeout * Double.random(in: 1.0...1.5)
    }

    /// The request to send again, or nil when it has been sent MAX_RETRANSMIT times or was acknowledged
    /// (then only the deadline remains).
    mutating func retransmit() -> CoAPMessage? {
        retransmitIn = retransmitIn * 2
        guard !acknowledged, retransmissions < Self.maxRetransmit else { return nil }
        retransmissions += 1
        return request
    }

    /// Takes one datagram from the server.
    mutating func receive(_ datagram: [UInt8]) -> Step {
        let message: CoAPMessage
        do { message = try CoAPMessage(decoding: datagram) } catch { return .malformed("not CoAP: \(error)") }
        switch message.kind {
        case .acknowledgement where message.messageID == request.messageID:
            if message.code == .empty {
                acknowledged = true
                return .wait
            }
            guard message.token == request.token else { return .malformed("an acknowledgement with another token") }
            return .answer(message)
        case .reset where message.messageID == request.messageID:
            return .reset
        case .confirmable where message.token == request.token && !message.code.isRequest && message.code != .empty:
            let ack = CoAPMessage(kind: .acknowledgement, code: .empty, messageID: message.messageID)
            return .acknowledge(ack, answer: message)
        case .nonConfirmable where message.token == request.token && !message.code.isRequest && message.code != .empty:
            return .answer(message)
        default:
            return .wait
        }
    }
}
