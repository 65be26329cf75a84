public import DBus

/// Why a call to otbr-agent failed: which agent, which operation, and the cause as one sentence.
///
/// ```
/// ActivateEphemeralKeyMode on wpan0 failed: otbr-agent for wpan0 is not running
/// ```
public struct AgentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The agent's Thread interface.
    public var interfaceName: ThreadInterfaceName
    /// The D-Bus member or client operation that failed, e.g. `ActivateEphemeralKeyMode` or `Get DeviceRole`.
    public var operation: String
    /// What went wrong.
    public var cause: Cause

    /// What went wrong, from the agent's own error names to the bus's.
    public enum Cause: Equatable, Sendable {
        /// The agent answered with an `io.openthread.Error.*` name of its table.
        case openThread(OpenThreadError)
        /// The agent answered with an `io.openthread.Error.*` name outside its table.
        case unknownOpenThreadError(ErrorName)
        /// Nobody owns the agent's bus name (`ServiceUnknown`, `NameHasNoOwner`).
        case notRunning
        /// The D-Bus policy refused the call (`AccessDenied`).
        case accessDenied
        /// No reply came within the timeout (`NoReply`, `Timeout`).
        case timedOut
        /// The agent left the bus while the call was outstanding (it crashed or restarted).
        case agentExited
        /// The method or object does not exist on this agent (`UnknownMethod`, `UnknownObject`,
        /// `UnknownInterface`): an NCP agent or a build without the feature.
        case notSupported
        /// This client's own bus connection is closed.
        case disconnected
        /// The calling task was cancelled.
        case cancelled
        /// The client refused the request before sending it, with the reason.
        case invalidRequest(String)
        /// The agent's reply does not have the expected type or content, with the detail.
        case unexpectedReply(String)
        /// Any other error from the bus, as received.
        case bus(DBusError)
    }

    /// An error of `operation` on the agent of `interfaceName`.
    public init(interfaceName: ThreadInterfaceName, operation: String, cause: Cause) {
        self.interfaceName = interfaceName
        self.operation = operation
        self.cause = cause
    }

    /// The OpenThread error the agent sent, if that is the cause.
    public var openThreadError: OpenThreadError? {
        if case .openThread(let e) = cause { return e }
        return nil
    }

    /// The cause as a sentence fragment, naming the agent.
    public var reason: String {
        let agent = "otbr-agent for \(interfaceName)"
        switch cause {
        case .openThread(let e): return "\(agent) answered \(e.errorName)"
        case .unknownOpenThreadError(let name): return "\(agent) answered \(name), an error it does not document"
        case .notRunning: return "\(agent) is not running"
        case .accessDenied: return "permission denied by the D-Bus policy (see otbr-agent.conf)"
        case .timedOut: return "\(agent) did not answer in time"
        case .agentExited: return "\(agent) left the bus before answering"
        case .notSupported: return "not supported by this otbr-agent build"
        case .disconnected: return "the connection to the bus is closed"
        case .cancelled: return "the call was cancelled"
        case .invalidRequest(let why): return why
        case .unexpectedReply(let why): return "\(agent) sent an unexpected reply: \(why)"
        case .bus(let e): return "the bus answered \(e)"
        }
    }

    public var description: String { "\(operation) on \(interfaceName) failed: \(reason)" }

    /// Maps anything a call can throw to an agent error.
    static func from(_ error: any Error, interfaceName: ThreadInterfaceName, operation: String) -> AgentError {
        if let e = error as? AgentError { return e }
        if error is CancellationError {
            return AgentError(interfaceName: interfaceName, operation: operation, cause: .cancelled)
        }
        if let e = error as? DBusValueError {
            return AgentError(interfaceName: interfaceName, operation: operation, cause: .unexpectedReply(e.description))
        }
        guard let e = error as? DBusError else {
            return AgentError(interfaceName: interfaceName, operation: operation, cause: .unexpectedReply("\(error)"))
        }
        return AgentError(interfaceName: interfaceName, operation: operation, cause: Cause(e))
    }
}

extension AgentError.Cause {
    /// The cause a D-Bus error reply stands for: `io.openthread.Error.*` names to ``OpenThreadError``
    /// (an unknown one to ``unknownOpenThreadError(_:)``), the bus's names to the causes above.
    public init(_ e: DBusError) {
        if let ot = OpenThreadError(errorName: e.name) {
            self = .openThread(ot)
            return
        }
        if e.name.rawValue.hasPrefix(OTBRNames.errorPrefix) {
            self = .unknownOpenThreadError(e.name)
            return
        }
        switch e.name {
        case .serviceUnknown, .nameHasNoOwner: self = .notRunning
        case .accessDenied: self = .accessDenied
        case .unknownMethod, .unknownObject, .unknownInterface: self = .notSupported
        case .disconnected: self = .disconnected
        case .timeout: self = .timedOut
        case .noReply:
            // dbus-daemon answers a pending call with NoReply "Message recipient disconnected from message
            // bus without replying" when the peer exits; a local timeout says "no reply within …".
            self = e.message.lowercased().contains("disconnected") ? .agentExited : .timedOut
        default: self = .bus(e)
        }
    }
}
