import TBRCoreServices
import TBRCore
import TBRFoundation

// The core's call gate and its events (TBRCore's CoreLifecycle), and the core as the adapters take it.

extension DaemonRuntime: CoreLifecycle {
    /// Serves one call of an adapter through the call gate; whatever the parts underneath throw (the device
    /// model, the store, a bus) leaves as the core's one error (``DaemonError/core(_:)``).
    nonisolated func serving<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await gated(body) } catch { throw DaemonError.core(error) }
    }

    nonisolated func events(bufferLimit: Int) -> EventStream<CoreEvent> { coreEvents.events(bufferLimit: bufferLimit) }
}

extension DaemonRuntime {
    /// The core as the adapters take it: the routers (``CoreRouters``) and the tokens (``APIAuthenticator``)
    /// are services of their own; structures, Matter, diagnostics and the call gate are still answered by
    /// this actor (docs/architecture.md, "Layers").
    nonisolated var core: Core {
        Core(routers: routers, diagnostics: diagnostics, structures: structureService, matter: matter, tokens: authenticator, lifecycle: self)
    }
}
