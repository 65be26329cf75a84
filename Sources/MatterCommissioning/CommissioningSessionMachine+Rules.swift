package import DeviceModel
package import MatterOnboarding
package import MeshCoP
import TBRFoundation

extension CommissioningSessionMachine {
    /// The network a payload goes to: `explicit`, else the structure's default, else the only network
    /// among its routers.
    /// - Throws: ``DeviceModel/HomeError`` `invalidArgument` naming the candidates when the network is
    ///   unknown (no router of the structure is on it) or ambiguous; `invalidState` when no router of the
    ///   structure has a network.
    package static func chooseNetwork(_ explicit: ExtendedPANID?, in view: CommissioningStructureView) throws(HomeError) -> ExtendedPANID {
        let candidates = view.networks
        let list = candidates.map(\.description).joined(separator: ", ")
        let name = quoted(view.name)
        if let explicit {
            guard candidates.contains(explicit) else {
                throw HomeError(
                    .invalidArgument,
                    candidates.isEmpty
                        ? "no border router of structure \(name) is on Thread network \(explicit) (none has a network)"
                        : "no border router of structure \(name) is on Thread network \(explicit) (its networks: \(list))")
            }
            return explicit
        }
        if let preferred = view.defaultNetwork {
            guard candidates.contains(preferred) else {
                throw HomeError(
                    .invalidArgument,
                    "the default Thread network of structure \(name), \(preferred), has no border router of the structure on it "
                        + "(its networks: \(candidates.isEmpty ? "none" : list)); choose one with the network option")
            }
            return preferred
        }
        guard let only = candidates.first else {
            throw HomeError(.invalidState, "no border router of structure \(name) has a Thread network")
        }
        guard candidates.count == 1 else {
            throw HomeError(
                .invalidArgument,
                "structure \(name) has several Thread networks (\(list)) and no default one: choose one with the network option, "
                    + "or set its DefaultThreadNetworkId")
        }
        return only
    }

    /// Why the node's name or room in `options` cannot be used in the structure `view` describes, or nil: a
    /// name that breaks the rules (at most 32 bytes: it is written to NodeLabel), a room the structure lacks.
    package static func problem(withNaming options: CommissioningOptions, in view: CommissioningStructureView) -> String? {
        if let name = options.name, let problem = RecordedMatterNode.problem(withName: name) { return problem }
        if let room = options.room, !view.rooms.contains(NameRules.canonical(room)) {
            return "structure \(quoted(view.name)) has no room \(quoted(room))"
                + (view.rooms.isEmpty ? " (it has none)" : " (its rooms: \(view.rooms.map(quoted).joined(separator: ", ")))")
        }
        return nil
    }

    /// Why `payload` cannot be commissioned with `options`, or nil: a QR code says how the device can be
    /// found, and a Thread device that is not yet on the network is found over BLE.
    package static func problem(with payload: SetupPayload, options: CommissioningOptions) -> String? {
        guard let capabilities = payload.discoveryCapabilities, !options.onNetwork else { return nil }
        guard capabilities.contains(.ble) else {
            return "the device's QR code offers no BLE discovery (it offers \(capabilities)), so it cannot be given Thread "
                + "credentials; if it is already on the network, commission it with the onNetwork option"
        }
        return nil
    }
}
