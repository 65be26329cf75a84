import DBus
import TBRFoundation
public import MeshCoP

extension BorderRouterAgent {
    /// The longest ePSKc lifetime the agent grants (`OT_BORDER_AGENT_MAX_EPHEMERAL_KEY_TIMEOUT`).
    public static let maximumEphemeralKeyLifetime: Duration = .milliseconds(600_000)
    /// The lifetime of a key activated with lifetime zero (`OT_BORDER_AGENT_DEFAULT_EPHEMERAL_KEY_TIMEOUT`).
    public static let defaultEphemeralKeyLifetime: Duration = .milliseconds(120_000)

    /// `ActivateEphemeralKeyMode(u) → s`: starts an ephemeral key and returns it.
    ///
    /// The agent checks its state before the argument: `NotCapable` when the feature is off, `Busy` when
    /// a key is active; then `InvalidArgs` above 600 000 ms. The key is returned to the caller only: it is
    /// never logged here.
    /// - Parameter lifetime: how long the key is valid; zero means the default of 120 s.
    /// - Throws: ``AgentError``: the agent's errors above; an unexpected reply if the key is not 9 digits
    ///   with a valid Verhoeff check digit; an invalid request for a negative or enormous lifetime.
    public func activateEphemeralKeyMode(lifetime: Duration = .zero) async throws(AgentError) -> EphemeralKey {
        let operation = "ActivateEphemeralKeyMode"
        guard let ms = lifetime.wholeMilliseconds else {
            throw failure(operation, .invalidRequest("the lifetime \(lifetime) is not 0…4294967295 ms"))
        }
        return try ephemeralKey(from: try await call("ActivateEphemeralKeyMode", [.uint32(ms)]))
    }

    /// Reads `property` and activates a key (as ``activateEphemeralKeyMode(lifetime:)``) in one round
    /// trip: both calls are sent together and the agent, which handles one message at a time, answers
    /// the read first, so it sees the state before the key (the baseline of the border-agent counters,
    /// for example).
    /// - Returns: the read's outcome and the activation's, each on its own.
    public func activateEphemeralKeyMode<Value>(lifetime: Duration = .zero, readingFirst property: AgentProperty<Value>) async
        -> (read: Result<Value, AgentError>, key: Result<EphemeralKey, AgentError>)
    {
        let operation = "ActivateEphemeralKeyMode"
        guard let ms = lifetime.wholeMilliseconds else {
            let refused = failure(operation, .invalidRequest("the lifetime \(lifetime) is not 0…4294967295 ms"))
            let value: Result<Value, AgentError>
            do { value = .success(try await read(property)) } catch { value = .failure(error) }
            return (value, .failure(refused))
        }
        let (read, reply) = await readThenCall(property, "ActivateEphemeralKeyMode", [.uint32(ms)])
        return (read, reply.flatMap { (reply) -> Result<EphemeralKey, AgentError> in Result { () throws(AgentError) in try ephemeralKey(from: reply) } })
    }

    /// Reads `property` and deactivates the key (as ``deactivateEphemeralKeyMode(retainActiveSession:)``)
    /// in one round trip; the agent answers the read first.
    public func deactivateEphemeralKeyMode<Value>(retainActiveSession: Bool = false, readingFirst property: AgentProperty<Value>) async
        -> (read: Result<Value, AgentError>, deactivated: Result<Void, AgentError>)
    {
        let (read, reply) = await readThenCall(property, "DeactivateEphemeralKeyMode", [.bool(retainActiveSession)])
        return (read, reply.map { _ in () })
    }

    /// The key in an `ActivateEphemeralKeyMode` reply.
    private func ephemeralKey(from reply: [DBusValue]) throws(AgentError) -> EphemeralKey {
        let operation = "ActivateEphemeralKeyMode"
        let text = try decode(reply.first, as: String.self, operation)
        do { return try EphemeralKey(validating: text) } catch {
            throw failure(operation, .unexpectedReply("the agent's key is not valid: \(error)"))
        }
    }

    /// `Properties.Get` of `property`, then `member`, sent together (``Connection/callInOrder(_:timeout:)``).
    private func readThenCall<Value>(_ property: AgentProperty<Value>, _ member: MemberName, _ arguments: [DBusValue]) async
        -> (Result<Value, AgentError>, Result<[DBusValue], AgentError>)
    {
        let command = OutgoingCall(destination: busName, path: objectPath, interface: OTBRNames.interface, member: member, arguments: arguments)
        let getName = "Get \(property.name)"
        let results: [Result<[DBusValue], any Error>]
        do {
            results = try await connection.callInOrder([getCall(property), command], timeout: callTimeout)
        } catch {
            return (
                .failure(AgentError.from(error, interfaceName: interfaceName, operation: getName)),
                .failure(AgentError.from(error, interfaceName: interfaceName, operation: member.rawValue))
            )
        }
        let read = results[0].mapError { AgentError.from($0, interfaceName: interfaceName, operation: getName) }
            .flatMap { (reply) -> Result<Value, AgentError> in Result { () throws(AgentError) in try decodeGet(reply, property) } }
        let called = results[1].mapError { AgentError.from($0, interfaceName: interfaceName, operation: member.rawValue) }
        return (read, called)
    }

    /// `DeactivateEphemeralKeyMode(b)`: stops the active key. With `retainActiveSession` a commissioner
    /// already connected with the key keeps its session (and the key stays until it disconnects).
    /// Succeeds when no key is active.
    /// - Throws: ``AgentError``: `NotCapable` when the feature is off.
    public func deactivateEphemeralKeyMode(retainActiveSession: Bool = false) async throws(AgentError) {
        try await callVoid("DeactivateEphemeralKeyMode", [.bool(retainActiveSession)])
    }
}
