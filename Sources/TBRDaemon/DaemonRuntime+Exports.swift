import DBus
import TBRDBusAPI

// The one boundary between tbrd's D-Bus objects and its code: every method and property handler is
// declared from the contract (TBRDBusAPI), admitted by the call gate (refused once tbrd is stopping),
// and has its errors mapped to `io.tbrd.Error.*` here, once.

extension DaemonRuntime {
    /// Serves one call: refused with `Unavailable` once tbrd is stopping; any error becomes tbrd's D-Bus error.
    nonisolated func serving<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard calls.enter() else { throw DBusError(TBRDBusAPI.Error.unavailable, "tbrd is stopping") }
        defer { calls.leave() }
        do { return try await body() } catch { throw DaemonError.from(error) }
    }

    /// The exported method of `contract`, served by `handler`.
    nonisolated func method(
        _ contract: MethodContract, _ handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]
    ) -> Method {
        Method(contract.name, inputs: contract.inputs, outputs: contract.outputs) { [self] call in
            try await serving { try await handler(call) }
        }
    }

    /// The exported property `p`, read by `get` and, for writable ones, written by `set`.
    nonisolated func property<P: PropertyContract>(
        _ p: P, get: @escaping @Sendable () async throws -> DBusValue,
        set: (@Sendable (DBusValue) async throws -> Void)? = nil
    ) -> Property {
        let served: @Sendable () async throws -> DBusValue = { [self] in try await serving { try await get() } }
        guard let set else { return Property(p.name, type: p.type, emitsChanged: p.emitsChanged, get: served) }
        let write: @Sendable (DBusValue, MethodCall) async throws -> Void = { [self] value, _ in
            try await serving { try await set(value) }
        }
        return Property(p.name, type: p.type, emitsChanged: p.emitsChanged, get: served, set: write)
    }
}
