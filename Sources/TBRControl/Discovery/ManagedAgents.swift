import MeshCoP
import DBus
import TBRDBusAPI

/// Which border agents tbrd manages: its routers' Border Agent IDs.
enum ManagedAgents {
    /// Border Agent ID (hex, lower case) → tbrd router id, for every router tbrd knows; empty (with a
    /// note on standard error) when tbrd is not running or cannot be asked.
    static func lookUp(_ context: CommandContext) async -> [String: String] {
        do {
            return try await RouterSession.withConnection(context) { connection in
                guard try await RouterSession.tbrdIsRunning(on: connection) else {
                    context.note("tbrd is not running on the \(context.bus) bus, so no agent is shown as managed")
                    return [:]
                }
                let backend = TbrdBackend(connection: connection)
                var ids: [String: String] = [:]
                for (path, listing) in try await backend.routerEntries() {
                    let router = RemoteObject(
                        connection: connection, destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.BorderRouter.interface)
                    let id = try await router.property(TBRDBusAPI.BorderRouter.Property.borderAgentId.rawValue, as: String.self)
                    if !id.isEmpty { ids[id.lowercased()] = listing.id }
                }
                return ids
            }
        } catch {
            context.note("cannot ask tbrd which agents it manages (\(error)), so no agent is shown as managed")
            return [:]
        }
    }
}

extension ManagedAgents {
    /// The Border Agent ID of the router `text` names (a tbrd router id, an interface name), or nil when
    /// it names none, or the router has no ID yet.
    static func borderAgentID(ofRouter text: String, _ context: CommandContext) async -> BorderAgentID? {
        try? await RouterSession.withBackend(context) { backend in
            let ref = try await backend.resolve(text)
            guard let id = try await backend.info(of: ref).borderAgentId else { return nil }
            return BorderAgentID(id)
        }
    }
}
