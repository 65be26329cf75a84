public import DBus
public import TBRFoundation

/// A typed client of one otbr-agent: `io.openthread.BorderRouter` at `/io/openthread/BorderRouter/<if>`
/// on `io.openthread.BorderRouter.<if>`, over a connection the caller owns.
///
/// Every call maps failures to ``AgentError``: the agent's `io.openthread.Error.*` names to
/// ``OpenThreadError``, and the bus's errors to causes such as "otbr-agent for wpan0 is not running".
/// The client knows the agent's quirks (see `../otbr/README.md`): it never calls `GetAll`, refuses
/// datasets over 254 bytes before `Set`, treats an error named `io.openthread.Error.OK` as a failure, and
/// ``leaveNetwork(timeout:)`` waits for the agent to come back.
///
/// ```swift
/// let agent = BorderRouterAgent(connection: connection, interfaceName: "wpan0")
/// let (role, name) = try await agent.read(.deviceRole, .networkName)   // one GetProperties call
/// let key = try await agent.activateEphemeralKeyMode(lifetime: .seconds(300))
/// ```
public struct BorderRouterAgent: Sendable {
    /// The connection calls go through.
    public let connection: Connection
    /// The agent's Thread interface.
    public let interfaceName: ThreadInterfaceName
    /// How long ordinary calls wait for a reply (libdbus's default, 25 s).
    public var callTimeout: Duration
    /// How long calls that wait for the network wait (`Attach`, `Join`, `AttachAllNodesTo`,
    /// `SetThreadEnabled(false)`, `LeaveNetwork`); the real agent takes ~7 s to become leader.
    public var networkTimeout: Duration
    /// Where the client's own waits are timed (``leaveNetwork(timeout:)``'s wait for the agent to come
    /// back); the bus times the calls.
    public var clock: any TBRClock

    /// A client of the agent for `interfaceName` on `connection`.
    public init(
        connection: Connection, interfaceName: ThreadInterfaceName, callTimeout: Duration = Connection.defaultTimeout,
        networkTimeout: Duration = .seconds(120), clock: any TBRClock = SystemClock()
    ) {
        self.connection = connection
        self.interfaceName = interfaceName
        self.callTimeout = callTimeout
        self.networkTimeout = networkTimeout
        self.clock = clock
    }

    /// The agent's well-known bus name.
    public var busName: BusName { interfaceName.busName }
    /// The agent's object path.
    public var objectPath: ObjectPath { interfaceName.objectPath }

    /// The agent's object as a generic remote object, for calls this client does not wrap.
    public var remote: RemoteObject {
        RemoteObject(connection: connection, destination: busName, path: objectPath, interface: OTBRNames.interface)
    }

    /// Calls `member` of `io.openthread.BorderRouter` and returns the reply's arguments.
    /// - Throws: ``AgentError``.
    public func call(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration? = nil)
        async throws(AgentError) -> [DBusValue]
    {
        do {
            return try await connection.call(
                destination: busName, path: objectPath, interface: OTBRNames.interface, member: member,
                arguments: arguments, timeout: timeout ?? callTimeout)
        } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: member.rawValue)
        }
    }

    /// Calls a method whose reply has no arguments.
    func callVoid(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration? = nil)
        async throws(AgentError)
    {
        _ = try await call(member, arguments, timeout: timeout)
    }

    /// An error of `operation` with `cause`.
    func failure(_ operation: String, _ cause: AgentError.Cause) -> AgentError {
        AgentError(interfaceName: interfaceName, operation: operation, cause: cause)
    }

    /// Decodes a reply value as `T`, or fails `operation` with an unexpected-reply error.
    func decode<T: DBusRepresentable>(_ value: DBusValue?, as _: T.Type, _ operation: String) throws(AgentError) -> T {
        guard let value else { throw failure(operation, .unexpectedReply("the reply has no arguments")) }
        do { return try value.decode(as: T.self) } catch { throw failure(operation, .unexpectedReply(error.description)) }
    }
}
