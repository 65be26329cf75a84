package import TBRCore
package import TBRFoundation

/// The core's lifecycle as the adapters see it (TBRCore's ``TBRCore/CoreLifecycle``): the call gate every
/// adapter's calls pass (refused once tbrd is stopping; a stopping tbrd waits for the calls it admitted)
/// and the events (``CoreEvents``).
package struct CoreGate: CoreLifecycle {
    package let calls: CallGate
    package let coreEvents: CoreEvents

    package init(calls: CallGate, events: CoreEvents) {
        self.calls = calls
        self.coreEvents = events
    }

    /// Runs one call: refused with `unavailable` once tbrd is stopping; errors pass through as they are.
    package func gated<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard calls.enter() else { throw CoreError(.unavailable, "tbrd is stopping") }
        defer { calls.leave() }
        return try await body()
    }

    /// Serves one call of an adapter through the gate; whatever the parts underneath throw leaves as the
    /// core's one error (``ServiceError/core(_:)``).
    package func serving<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await gated(body) } catch { throw ServiceError.core(error) }
    }

    package func events(bufferLimit: Int) -> EventStream<CoreEvent> { coreEvents.events(bufferLimit: bufferLimit) }
}
