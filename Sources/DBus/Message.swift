/// A D-Bus message as Swift values: what arrives from the bus, decoded once on the connection's queue.
public struct Message: Sendable {
    /// The four message types of the specification.
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal
    }

    public var kind: Kind
    /// The serial the sender gave the message.
    public var serial: UInt32
    /// For replies and errors, the serial of the call they answer.
    public var replySerial: UInt32
    /// The sender's unique name (set by the bus).
    public var sender: String?
    public var destination: String?
    public var path: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// For errors, the error name.
    public var errorName: ErrorName?
    /// The signature of ``body``.
    public var signature: Signature
    /// The arguments.
    public var body: [DBusValue]
    /// For method calls: the caller asked for no reply.
    public var noReplyExpected: Bool
}

extension Message {
    /// A reply as its caller sees it: the method return itself, or for an error reply a ``DBusError``
    /// with the name exactly as sent and the first string argument as its message (empty when there is
    /// none: otbr-agent sends none). ``Connection`` and ``BlockingConnection`` both end their calls with it.
    var replyOutcome: Result<Message, DBusError> {
        guard kind == .error else { return .success(self) }
        let text: String = if case .string(let s)? = body.first { s } else { "" }
        return .failure(DBusError(errorName ?? .failed, text))
    }
}

/// A signal as delivered to a subscription.
public struct Signal: Sendable {
    /// The sender's unique name.
    public var sender: String
    public var path: ObjectPath
    public var interface: InterfaceName
    public var member: MemberName
    /// The arguments.
    public var arguments: [DBusValue]
    /// The signature of ``arguments``.
    public var signature: Signature

    init?(_ m: Message) {
        guard m.kind == .signal, let path = m.path, let interface = m.interface, let member = m.member else {
            return nil
        }
        self.sender = m.sender ?? ""
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = m.body
        self.signature = m.signature
    }
}
