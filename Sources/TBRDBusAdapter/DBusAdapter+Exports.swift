import TBRCoreServices
import DBus
import TBRDBusAPI
import TBRCore

// The one boundary between tbrd's D-Bus objects and its code: every method and property handler is
// declared from the contract (TBRDBusAPI), admitted by the call gate (refused once tbrd is stopping),
// and has its errors spelled as `io.tbrd.Error.*` here, once (DaemonError.from). The HTTP adapter passes
// the same gate (``TBRCoreServices/CoreGate/serving(_:)``) and spells the core's errors itself (APIProblem.from).

extension DBusAdapter {
    /// Runs one call of any adapter: refused with `unavailable` once tbrd is stopping; errors pass
    /// through as they are, for the adapter to spell.
    nonisolated func gated<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await gate.gated(body)
    }

    /// Serves one D-Bus call: any error becomes tbrd's D-Bus error.
    nonisolated func servingDBus<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await gated(body) } catch { throw DaemonError.from(error) }
    }

    /// The exported method of `contract`, served by `handler`.
    nonisolated func method(
        _ contract: MethodContract, _ handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]
    ) -> Method {
        Method(contract.name, inputs: contract.inputs, outputs: contract.outputs) { [self] call in
            try await servingDBus { try await handler(call) }
        }
    }

    /// The exported property `p`, read by `get` and, for writable ones, written by `set`.
    nonisolated func property<P: PropertyContract>(
        _ p: P, get: @escaping @Sendable () async throws -> DBusValue,
        set: (@Sendable (DBusValue) async throws -> Void)? = nil
    ) -> Property {
        let served: @Sendable () async throws -> DBusValue = { [self] in try await servingDBus { try await get() } }
        guard let set else { return Property(p.name, type: p.type, emitsChanged: p.emitsChanged, get: served) }
        let write: @Sendable (DBusValue, MethodCall) async throws -> Void = { [self] value, _ in
            try await servingDBus { try await set(value) }
        }
        return Property(p.name, type: p.type, emitsChanged: p.emitsChanged, get: served, set: write)
    }
}
