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
        let reply = try await call("ActivateEphemeralKeyMode", [.uint32(ms)])
        let text = try decode(reply.first, as: String.self, operation)
        do { return try EphemeralKey(validating: text) } catch {
            throw failure(operation, .unexpectedReply("the agent's key is not valid: \(error)"))
        }
    }

    /// `DeactivateEphemeralKeyMode(b)`: stops the active key. With `retainActiveSession` a commissioner
    /// already connected with the key keeps its session (and the key stays until it disconnects).
    /// Succeeds when no key is active.
    /// - Throws: ``AgentError``: `NotCapable` when the feature is off.
    public func deactivateEphemeralKeyMode(retainActiveSession: Bool = false) async throws(AgentError) {
        try await callVoid("DeactivateEphemeralKeyMode", [.bool(retainActiveSession)])
    }
}
