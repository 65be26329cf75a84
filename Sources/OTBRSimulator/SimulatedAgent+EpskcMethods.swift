import DBus
import MeshCoP
import OpenThreadBR

/// The handlers of `io.openthread.BorderRouter`'s ePSKc methods (`ActivateEphemeralKeyMode`,
/// `DeactivateEphemeralKeyMode`), present only when the agent is built with the feature; the key's life
/// is ``EphemeralKeyManager``'s.
extension SimulatedAgent {
    func handleActivateEphemeralKeyMode(_ call: MethodCall) throws -> [DBusValue] {
        guard configuration.epskcBuiltIn else { throw MethodArguments.unknownMethod(call) }
        switch runtime.epskc.state {
        case .disabled: throw OpenThreadError.notCapable.dbusError
        case .stopped: break
        default: throw OpenThreadError.busy.dbusError
        }
        guard let a = MethodArguments.prefix(call, [.uint32]), case .uint32(let lifetime) = a[0],
            lifetime <= EphemeralKeyManager.maxLifetimeMs
        else { throw Self.invalidArgs() }
        let key: EphemeralKey
        do { key = try EphemeralKey.generate() } catch { throw Self.invalidArgs() }
        switch runtime.epskc.start(key: key.digits, lifetimeMs: lifetime, now: uptimeMs) {
        case .success(let action):
            applyTimer(action)
            return [.string(key.digits)]
        case .failure(let error):
            throw error.dbusError
        }
    }

    func handleDeactivateEphemeralKeyMode(_ call: MethodCall) throws -> [DBusValue] {
        guard configuration.epskcBuiltIn else { throw MethodArguments.unknownMethod(call) }
        guard let a = MethodArguments.prefix(call, [.boolean]), case .bool(let retain) = a[0] else {
            throw Self.invalidArgs()
        }
        switch runtime.epskc.state {
        case .disabled: throw OpenThreadError.notCapable.dbusError
        case .stopped: return []
        case .started: break
        case .connected, .accepted: if retain { return [] }
        }
        applyTimer(runtime.epskc.stop(.localDisconnect, now: uptimeMs))
        return []
    }
}
