/// Why a call to an otbr-agent's REST API failed: a kind a program can act on and a sentence naming the
/// agent.
public struct RESTAgentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// Nothing answers at the address (or a TLS failure: nothing tbrd can talk to).
        case unreachable
        /// No complete answer within `rest-timeout`.
        case timedOut
        /// Something answers, but not an otbr-agent's REST API.
        case notAnAgent
        /// The agent refused: 400 (the request is wrong), 409 (not now: Thread enabled, a key active, the
        /// feature off), or another status; ``status`` has it.
        case refused
        /// The agent answered something that cannot be read (wrong JSON, HTML, an endless body).
        case invalidResponse
        /// The caller gave up.
        case cancelled
    }

    /// The kind.
    public var kind: Kind
    /// One sentence, naming the agent's URL.
    public var message: String
    /// The HTTP status, for `refused` (and `notAnAgent` when the answer had one).
    public var status: Int?

    /// An error as given.
    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }
}
