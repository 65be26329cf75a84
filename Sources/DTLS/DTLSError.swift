/// Why a DTLS operation ended without its result. Never carries a secret.
public enum DTLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The deadline passed before the peer answered (the handshake retransmitted meanwhile).
    case deadline
    /// Nothing listens at that port (ICMP port unreachable).
    case refused
    /// The peer ended the handshake with a fatal alert (for EC-JPAKE: the passwords differ).
    case peerAlert
    /// The peer closed the session (close_notify).
    case peerClosed
    /// The peer's Finished did not verify: the passwords differ.
    case badFinished
    /// Server: a HelloVerifyRequest (cookie) went out; the client is expected to try again.
    case helloVerify
    /// The wait was cancelled.
    case cancelled
    /// The socket could not be set up (errno's sentence).
    case socket(String)
    /// Any other failure: mbedTLS's code and sentence.
    case failed(code: Int32, text: String)

    public var description: String {
        switch self {
        case .deadline: "no answer before the deadline"
        case .refused: "nothing listens at that port"
        case .peerAlert: "the peer ended the handshake with a fatal alert"
        case .peerClosed: "the peer closed the session"
        case .badFinished: "the peer's handshake did not verify (a different key)"
        case .helloVerify: "a cookie was requested"
        case .cancelled: "cancelled"
        case .socket(let text): text
        case .failed(let code, let text): "\(text) (mbedTLS -0x\(String(-code, radix: 16)))"
        }
    }
}
