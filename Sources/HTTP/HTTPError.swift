/// Why an HTTP request got no response: a kind a program can act on and a sentence a person can read.
public struct HTTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// Nothing answered: the name does not resolve, the connection was refused or could not be made.
        case unreachable
        /// No complete answer within the request's time limit.
        case timedOut
        /// The answer was longer than the client accepts.
        case tooLarge
        /// TLS failed: the certificate could not be verified, or the handshake broke.
        case tls
        /// The server broke HTTP (a malformed answer, the connection closed mid-answer).
        case protocolViolation
        /// The caller gave up (its task was cancelled).
        case cancelled
    }

    /// The kind.
    public var kind: Kind
    /// One sentence, naming the URL.
    public var message: String

    /// An error as given.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
