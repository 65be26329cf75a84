public import MatterOnboarding

/// Why a commissioner call failed: a kind a program can act on, a sentence a person can read, and, when
/// the backend knows it, the commissioning stage that failed.
public struct CommissionerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// The commissioner cannot be reached (not running, connection refused, handshake failed).
        case unavailable
        /// No answer within the call's timeout.
        case timedOut
        /// The connection went away while the call waited.
        case connectionLost
        /// The commissioner answered with an error (a device that did not answer, a wrong passcode …).
        case refused
        /// The commissioner cannot do this at all.
        case notSupported
        /// The commissioner answered something that cannot be understood.
        case invalidResponse
    }

    /// The kind.
    public var kind: Kind
    /// A full sentence (never a secret).
    public var message: String
    /// The stage that failed, when the backend knows better than the caller (an interview that failed
    /// after the device was commissioned).
    public var stage: CommissioningStage?
    /// python-matter-server's `error_code`, when it sent one.
    public var serverCode: Int?
    /// The command was sent and its answer never came (a timeout, a lost connection): the commissioner
    /// may still have done it.
    public var isOutcomeUnknown: Bool {
        kind == .timedOut || kind == .connectionLost
    }

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String, stage: CommissioningStage? = nil, serverCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.stage = stage
        self.serverCode = serverCode
    }

    public var description: String { message }
}
