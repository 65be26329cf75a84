public import DTLS
public import MeshCoP

/// Why a fetch of a border router's credentials gave nothing. Each is one sentence a person can act on,
/// with no secret in it; tbrctl and tbrd map them to the same exit statuses and D-Bus errors.
public enum CredentialFetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The handshake failed on the password: the key is not the one that router shows.
    case wrongKey(UDPAddress)
    /// Nothing listens there: no ePSKc is active, or it ended.
    case nothingListening(UDPAddress)
    /// No answer within the time allowed (the handshake, or `MGMT_ACTIVE_GET`, retransmitted meanwhile).
    case noAnswer(UDPAddress, seconds: Int)
    /// The border agent answered `MGMT_ACTIVE_GET` with an error code.
    case refused(UDPAddress, code: String)
    /// The answer is not CoAP, or not the answer to our request.
    case badAnswer(UDPAddress, String)
    /// The answer decodes, but is not a complete Active dataset: every problem.
    case incompleteDataset(UDPAddress, [DatasetProblem])
    /// The session could not be set up here (a socket, mbedTLS), or failed otherwise.
    case session(UDPAddress, String)
    /// The fetch was cancelled (tbrd stopping, the caller gone).
    case cancelled

    /// How many failed tries end a key on the serving router (OpenThread's `kMaxConnectionAttempts`,
    /// observed on a real agent: the 10th counted failure stops it).
    public static let maxFailedAttempts = 10

    public var description: String {
        switch self {
        case .wrongKey(let a):
            "the border agent at \(a) rejected the key: the handshake failed. Check the 9 digits the router shows; "
                + "a router ends its key after \(Self.maxFailedAttempts) failed tries"
        case .nothingListening(let a):
            "nothing answers at \(a): that router has no ePSKc active there (it ended, or was never started)"
        case .noAnswer(let a, let seconds):
            "no answer from \(a) within \(seconds) s (the handshake was retransmitted): is the router reachable?"
        case .refused(let a, let code):
            "the border agent at \(a) refused to give its Active dataset (MGMT_ACTIVE_GET answered \(code))"
        case .badAnswer(let a, let why):
            "the border agent at \(a) gave an answer that is not one: \(why)"
        case .incompleteDataset(let a, let problems):
            "the border agent at \(a) answered with an Active dataset that is not complete; nothing was stored:\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
        case .session(let a, let why):
            "the DTLS session with \(a) failed: \(why)"
        case .cancelled:
            "the fetch was cancelled"
        }
    }
}
