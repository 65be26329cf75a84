import TBRCore
import TBRFoundation

// The core's tokens, its call gate and its events (TBRCore's TokenCore and CoreLifecycle).

extension DaemonRuntime: TokenCore, CoreLifecycle {
    func authenticate(_ authorization: String?, client: String) async -> APIPrincipal? {
        await authenticator.authenticate(authorization, client: client)
    }

    nonisolated func admits(_ authorization: String?) async -> Bool { await authenticator.admits(authorization) }

    /// Serves one call of an adapter through the call gate; whatever the parts underneath throw (the device
    /// model, the store, a bus) leaves as the core's one error (``DaemonError/core(_:)``).
    nonisolated func serving<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await gated(body) } catch { throw DaemonError.core(error) }
    }

    nonisolated func events(bufferLimit: Int) -> EventStream<CoreEvent> { coreEvents.subscribe(bufferLimit: bufferLimit) { $0 } }
}
